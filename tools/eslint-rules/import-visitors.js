/**
 * The AST visitors that hand every module specifier of a file to `check(node, source)`: static
 * imports, `import()` with a literal, and re-exports. Shared by the boundary rules.
 */
export function importVisitors(check) {
  return {
    ImportDeclaration: (node) => check(node.source, String(node.source.value)),
    ImportExpression: (node) =>
      node.source.type === 'Literal' && check(node.source, String(node.source.value)),
    ExportNamedDeclaration: (node) => node.source && check(node.source, String(node.source.value)),
    ExportAllDeclaration: (node) => check(node.source, String(node.source.value)),
  };
}
