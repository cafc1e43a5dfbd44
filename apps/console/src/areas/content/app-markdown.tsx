/*
 * The content preview renders markdown with the customer app's own component and its
 * `.prose-alda` rules (imported by the console's stylesheet), so a draft looks as it will there.
 */
export { AppMarkdown } from '../../../../web/src/features/content/app-markdown';
