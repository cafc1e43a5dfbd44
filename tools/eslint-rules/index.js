// Project-local ESLint rules: feature boundaries, no barrels, no hard-coded UI text.
import path from 'node:path';
import apiBoundaries from './api-boundaries.js';
import { importVisitors } from './import-visitors.js';

const webSrc = (filename) => {
  const norm = filename.split(path.sep).join('/');
  const i = norm.indexOf('/apps/web/src/');
  return i === -1 ? null : norm.slice(i + '/apps/web/src/'.length);
};

/** Layer of a path under apps/web/src: 'app' | 'features/<name>' | 'shared' | other. */
const layerOf = (rel) => {
  const [top, name] = rel.split('/');
  if (top === 'features') return { layer: 'features', feature: name };
  return { layer: top };
};

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'shared → features → app; a feature never imports another feature' },
    schema: [],
  },
  create(context) {
    const rel = webSrc(context.filename);
    if (!rel) return {};
    const from = layerOf(rel);
    const check = (node, source) => {
      let target;
      if (source.startsWith('@/')) target = source.slice(2);
      else if (source.startsWith('.')) {
        const abs = path.posix.normalize(path.posix.join(path.posix.dirname(rel), source));
        if (abs.startsWith('..')) return;
        target = abs;
      } else return;
      const to = layerOf(target);
      if (from.layer === 'shared' && (to.layer === 'features' || to.layer === 'app'))
        context.report({ node, message: `shared/ must not import ${to.layer}/ (${source})` });
      if (from.layer === 'features' && to.layer === 'app')
        context.report({ node, message: `features must not import app/ (${source})` });
      if (from.layer === 'features' && to.layer === 'features' && to.feature !== from.feature)
        context.report({
          node,
          message: `feature '${from.feature}' must not import feature '${to.feature}'; move shared code to shared/ or the contract`,
        });
    };
    return importVisitors(check);
  },
};

const noBarrels = {
  meta: { type: 'problem', docs: { description: 'no barrel index files that re-export' }, schema: [] },
  create(context) {
    const base = path.basename(context.filename);
    if (!/^index\.(ts|tsx|js|mjs)$/.test(base)) return {};
    const report = (node) =>
      context.report({ node, message: 'No barrel files: import the module you mean directly.' });
    return {
      ExportAllDeclaration: report,
      ExportNamedDeclaration: (node) => node.source && report(node),
    };
  },
};

const TEXT_ATTRS = new Set(['placeholder', 'title', 'alt', 'aria-label', 'label']);
const hasWords = (s) => /\p{L}{2,}/u.test(s);

const noHardcodedText = {
  meta: {
    type: 'problem',
    docs: { description: 'user-visible JSX text must come from i18n (t())' },
    schema: [],
  },
  create(context) {
    return {
      JSXText(node) {
        if (hasWords(node.value))
          context.report({ node, message: `Hard-coded UI text "${node.value.trim()}": use t()` });
      },
      JSXAttribute(node) {
        const name = typeof node.name.name === 'string' ? node.name.name : '';
        if (!TEXT_ATTRS.has(name) || !node.value) return;
        const v = node.value;
        const literal =
          v.type === 'Literal'
            ? v.value
            : v.type === 'JSXExpressionContainer' && v.expression.type === 'Literal'
              ? v.expression.value
              : v.type === 'JSXExpressionContainer' && v.expression.type === 'TemplateLiteral'
                ? v.expression.quasis.map((q) => q.value.cooked).join('')
                : null;
        if (typeof literal === 'string' && hasWords(literal))
          context.report({ node, message: `Hard-coded ${name}="${literal}": use t()` });
      },
      'JSXExpressionContainer > Literal'(node) {
        if (node.parent.parent?.type === 'JSXAttribute') return;
        if (typeof node.value === 'string' && hasWords(node.value))
          context.report({ node, message: `Hard-coded UI text "${node.value}": use t()` });
      },
    };
  },
};

export default {
  rules: {
    'feature-boundaries': boundaries,
    'api-boundaries': apiBoundaries,
    'no-barrel-files': noBarrels,
    'no-hardcoded-jsx-text': noHardcodedText,
  },
};
