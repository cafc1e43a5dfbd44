// The documents a newcomer reads: every relative link in a tracked markdown file leads to a file
// or heading that exists, no document tells the story of the work instead of describing the
// product, and the README stays a front page that reaches every other document in one click.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter(Boolean);
const trackedFiles = new Set(tracked);
const trackedDirs = new Set(
  tracked.flatMap((file) => {
    const parts = file.split('/');
    return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
  }),
);
// Capacitor writes this one into the iOS project; it is theirs, not ours.
const NOT_OURS = new Set(['apps/web/ios/App/CapApp-SPM/README.md']);
const markdown = tracked.filter((file) => file.endsWith('.md') && !NOT_OURS.has(file));
const read = (file) => readFileSync(path.join(root, file), 'utf8');

/** The lines of a markdown text with those of fenced code blocks (and their fences) blanked. */
function outsideFences(text) {
  let fence = null;
  return text.split('\n').map((line) => {
    const opens = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = null;
      return '';
    }
    if (opens) fence = opens[1];
    return opens ? '' : line;
  });
}

/** The text as a reader sees it: fenced code blocks and inline code spans blanked, lines kept. */
function prose(text) {
  return outsideFences(text)
    .map((line) => line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (code) => ' '.repeat(code.length)))
    .join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map();
/** Every anchor a markdown file offers: its headings (numbered when repeated) and its HTML ids. */
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  for (const line of outsideFences(read(file))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** Each link's target with its line: inline links and images, and reference definitions. */
function linksOf(file) {
  const links = [];
  prose(read(file))
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        links.push({ line: i + 1, target: m[1] });
      }
      const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
      if (definition) links.push({ line: i + 1, target: definition[1] });
      for (const m of line.matchAll(/<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"/g)) {
        links.push({ line: i + 1, target: m[1] });
      }
    });
  return links;
}

/** Why a relative link is dead, or null when it leads somewhere. */
function deadLink(file, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null;
  const [pathPart, anchor] = target.split('#', 2);
  const decoded = decodeURIComponent(pathPart.split('?')[0]);
  const to = decoded
    ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decoded)).replace(/\/$/, '')
    : file;
  if (to.startsWith('..')) return 'leads out of the repository';
  if (!trackedFiles.has(to) && !trackedDirs.has(to)) return 'no such file in the repository';
  if (anchor && to.endsWith('.md') && !anchorsOf(to).has(anchor.toLowerCase())) {
    return `${to} has no heading #${anchor}`;
  }
  return null;
}

/**
 * Words that tell how the work went rather than what the product is. A reader needs the reason
 * itself (or a link to the ADR that gives it), the current figure and the command behind it.
 */
const DIARY = [
  /\bsittings?\b/i,
  /\bissues? #?\d+/i,
  /\b(?:this|that|same|one|previous|earlier|later|next|last|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th)) sessions?\b/i,
  /\bsessions? \d+\b/i,
  /\b(?:this|that|previous|last|next) stop\b/i,
  /\bstops? \d+\b/i,
  /\b(?:landing|landed|landings)\b/i,
];

describe('the documents', () => {
  it('has markdown to check', () => {
    expect(markdown).toContain('README.md');
    expect(markdown.length).toBeGreaterThan(50);
  });

  it('has no dead relative link in any markdown file', () => {
    const dead = markdown.flatMap((file) =>
      linksOf(file).flatMap(({ line, target }) => {
        const why = deadLink(file, target);
        return why ? [`${file}:${line}: (${target}) ${why}`] : [];
      }),
    );
    expect(dead).toEqual([]);
  });

  it('describes the product as it is: no sessions, sittings, stops or issue numbers', () => {
    const found = markdown.flatMap((file) =>
      prose(read(file))
        .split('\n')
        .flatMap((line, i) =>
          DIARY.flatMap((word) => {
            const m = word.exec(line);
            return m ? [`${file}:${i + 1}: "${m[0]}"`] : [];
          }),
        ),
    );
    expect(found).toEqual([]);
  });

  it('keeps the README a front page that links every other document', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(125);
    const targets = linksOf('README.md').map(({ target }) => target.split('#')[0]);
    for (const doc of [
      'docs/product.md',
      'docs/architecture.md',
      'docs/operations.md',
      'docs/configuration.md',
      'docs/performance.md',
      'docs/reliability.md',
      'docs/decisions/',
      'apps/web/native/README.md',
      'apps/api/README.md',
      'apps/web/README.md',
      'apps/console/README.md',
    ]) {
      expect(targets, doc).toContain(doc);
    }
  });

  it('lists every decision record in the index of docs/decisions', () => {
    const index = new Set(linksOf('docs/decisions/README.md').map(({ target }) => target));
    const records = tracked.filter((file) => /^docs\/decisions\/\d{4}-.*\.md$/.test(file));
    expect(records.length).toBeGreaterThan(50);
    const missing = records
      .map((file) => path.posix.basename(file))
      .filter((name) => !name.startsWith('0000') && !index.has(name));
    expect(missing, 'add them to docs/decisions/README.md').toEqual([]);
  });

  it('finds a dead link, a missing heading and a diary word when there is one', () => {
    expect(deadLink('README.md', 'docs/nowhere.md')).toBe('no such file in the repository');
    expect(deadLink('README.md', 'docs/operations.md#no-such-heading')).toMatch(/no heading/);
    expect(deadLink('README.md', 'docs/operations.md')).toBeNull();
    expect(
      deadLink('docs/product.md', '../README.md#alda--self-care-for-a-faroese-mobile-provider'),
    ).toBeNull();
    expect(deadLink('README.md', 'https://example.com/x.md')).toBeNull();
    expect(slug('Connect the network (TMF641)')).toBe('connect-the-network-tmf641');
    expect(slug('Boð um `datanýtslu` — 80 %')).toBe('boð-um-datanýtslu--80-');
    const diary = (text) => DIARY.some((word) => word.test(text));
    expect(diary('measured in the fifth session')).toBe(true);
    expect(diary('as issue 13 asked')).toBe(true);
    expect(diary('in one sitting')).toBe(true);
    expect(diary('the session ends when the refresh token is reused')).toBe(false);
    expect(diary('a stop at the cap')).toBe(false);
    expect(prose('a `issue 4` b\n```\nissue 5\n```\n')).not.toMatch(/issue/);
  });
});
