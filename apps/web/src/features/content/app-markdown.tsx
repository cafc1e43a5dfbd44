import Markdown, { type Components } from 'react-markdown';

/*
 * The terms and privacy texts as the app shows them: react-markdown with no remark or rehype
 * plugins, raw HTML skipped, inside `.prose-alda` (theme/prose-alda.css). The staff console's
 * content preview renders with this same component, so a draft looks as it will in the app.
 * Imports nothing of the app but react-markdown, so the console can import it.
 */

/**
 * The screen's title is its h1; the document's own headings move one level down so the outline
 * stays valid (the styles keep their look through data-md).
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
