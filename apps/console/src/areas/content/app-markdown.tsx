import Markdown, { type Components } from 'react-markdown';
import './prose-alda.css';

/*
 * Markdown as the customer's app renders terms and privacy
 * (apps/web/src/features/content/content-screen.tsx): react-markdown with no remark or rehype
 * plugins, raw HTML skipped (`skipHtml`), the document's headings one level down under the
 * screen's title (`data-md` keeps their look), inside `.prose-alda` — the app's stylesheet rules,
 * copied in prose-alda.css. app-markdown.test.ts fails when the app's rendering or rules change
 * without this copy.
 */

const SHIFTED_HEADINGS: Components = {
  h1: ({ node: _node, ...props }) => <h2 data-md="h1" {...props} />,
  h2: ({ node: _node, ...props }) => <h3 data-md="h2" {...props} />,
  h3: ({ node: _node, ...props }) => <h4 data-md="h3" {...props} />,
};

export function AppMarkdown({ markdown }: { markdown: string }) {
  return (
    <div className="prose-alda">
      <Markdown skipHtml components={SHIFTED_HEADINGS}>
        {markdown}
      </Markdown>
    </div>
  );
}
