import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The `@theme { … }` block of a stylesheet (up to the closing brace at the start of a line). */
function themeOf(file: string): string {
  const css = readFileSync(file, 'utf8');
  const start = css.indexOf('@theme {');
  if (start < 0) throw new Error(`No @theme in ${file}`);
  return css.slice(start, css.indexOf('\n}', start) + 2);
}

describe('the console design tokens', () => {
  it("are the customer app's tokens: change apps/web/src/styles.css and this copy together", () => {
    const console = themeOf(path.join(import.meta.dirname, 'styles.css'));
    const web = themeOf(path.join(import.meta.dirname, '../../web/src/styles.css'));
    expect(console).toBe(web);
  });
});
