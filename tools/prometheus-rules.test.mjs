// The operator's side of the metrics (issue 44 §3): the alert rules, their unit tests, the example
// Prometheus configuration and the Grafana dashboard in deploy/. promtool checks the PromQL and
// runs the rules' tests; this file adds what promtool cannot know: every alert has a runbook that
// exists in docs/operations.md, every alert is tested both ways, and the rules and the dashboard
// use only metrics the API exposes (deploy/prometheus/metric-names.json, which the API's own test
// compares with its registry).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (file) => path.join(root, file);

const ALERTS = 'deploy/prometheus/alerts.yml';
const ALERT_TESTS = 'deploy/prometheus/alerts.test.yml';
const CONFIG = 'deploy/prometheus/prometheus.yml';
const DASHBOARD = 'deploy/grafana/alda.json';
const RUNBOOKS = 'docs/operations.md';
const RUNBOOK_BASE = 'https://github.com/alda-fo/selfcare/blob/main/docs/operations.md#';

const rules = parse(readFileSync(at(ALERTS), 'utf8'));
const alertTests = parse(readFileSync(at(ALERT_TESTS), 'utf8'));
const dashboard = JSON.parse(readFileSync(at(DASHBOARD), 'utf8'));
const metrics = JSON.parse(readFileSync(at('deploy/prometheus/metric-names.json'), 'utf8')).metrics;

const alerts = rules.groups.flatMap((group) => group.rules.filter((rule) => rule.alert));

/**
 * Runs promtool; its output is the failure message, since that is where it says which rule or
 * test case is wrong. Missing promtool fails the test rather than skipping it: a skipped check
 * of the alert rules is one nobody notices.
 */
function promtool(args) {
  try {
    return execFileSync('promtool', args, { cwd: root, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    if (error.code === 'ENOENT') {
      throw new Error('promtool not found: apt-get install prometheus (.ci/run installs it)');
    }
    throw new Error(`promtool ${args.join(' ')} failed:\n${error.stdout}${error.stderr}`);
  }
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
function githubSlug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * The headings of a Markdown file with their anchors (a repeated slug gets -1, -2 … as on
 * GitHub), outside fenced code blocks, where `# …` is a shell comment.
 */
function headings(markdown) {
  const seen = new Map();
  const found = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const slug = githubSlug(match[2]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    found.push({ level: match[1].length, text: match[2], anchor: n === 0 ? slug : `${slug}-${n}` });
  }
  return found;
}

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names and label names a PromQL expression uses. Strings, label matchers, ranges and
 * grouping lists are taken out first; what remains that is an identifier, not a keyword and not
 * followed by "(" (a function or aggregation) is a metric name.
 */
function promqlNames(expr) {
  const labels = new Set();
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
  for (const [, inner] of withoutStrings.matchAll(/\{([^}]*)\}/g)) {
    for (const [, label] of inner.matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g)) labels.add(label);
  }
  const grouping = /\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g;
  for (const [, list] of withoutStrings.matchAll(grouping)) {
    for (const label of list.split(',').map((l) => l.trim())) if (label) labels.add(label);
  }
  const bare = withoutStrings
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(grouping, ' ')
    .replace(/""/g, ' ')
    .replace(/(^|[^\w.])\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, '$1 ');
  const names = new Set();
  for (const match of bare.matchAll(/[a-zA-Z_:][\w:]*/g)) {
    const rest = bare.slice(match.index + match[0].length);
    if (KEYWORDS.has(match[0].toLowerCase()) || /^\s*\(/.test(rest)) continue;
    names.add(match[0]);
  }
  return { names: [...names], labels: [...labels] };
}

const byName = new Map(metrics.map((m) => [m.name, m]));

/** A name from metric-names.json, or a histogram's _bucket/_sum/_count series. */
function knownMetric(name) {
  if (byName.has(name)) return true;
  const base = /^(.*)_(bucket|sum|count)$/.exec(name)?.[1];
  return base !== undefined && byName.get(base)?.type === 'histogram';
}

// Labels an expression may name: those of the metrics, plus what Prometheus adds (`job` is the
// scrape job, `instance` the target, `le` a histogram's bucket).
const knownLabels = new Set(['job', 'instance', 'le']);
for (const m of metrics) for (const label of m.labels) knownLabels.add(label);

/** Every panel, also those inside collapsed rows. */
function allPanels(panels) {
  return panels.flatMap((panel) => [panel, ...allPanels(panel.panels ?? [])]);
}

const dashboardExprs = allPanels(dashboard.panels).flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
);

function unknownNames(exprs) {
  const problems = [];
  for (const { where, expr } of exprs) {
    const { names, labels } = promqlNames(expr);
    for (const name of names) if (!knownMetric(name)) problems.push(`${where}: metric ${name}`);
    for (const label of labels)
      if (!knownLabels.has(label)) problems.push(`${where}: label ${label}`);
    // The plain scan of the brief, in case an alda_ name hides where the parser above
    // does not look.
    for (const [name] of expr.matchAll(/\balda_[a-z_]+/g)) {
      if (!knownMetric(name)) problems.push(`${where}: metric ${name}`);
    }
  }
  return [...new Set(problems)];
}

const tmp = mkdtempSync(path.join(tmpdir(), 'alda-prometheus-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('issue 44 §3: alert rules (deploy/prometheus/alerts.yml)', () => {
  it('issue 44 §3: promtool check rules passes', () => {
    expect(promtool(['check', 'rules', ALERTS])).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('issue 44 §3: promtool test rules passes (alerts.test.yml)', () => {
    expect(promtool(['test', 'rules', ALERT_TESTS])).toContain('SUCCESS');
  });

  it('issue 44 §3: the example prometheus.yml passes promtool check config and loads alerts.yml', () => {
    const config = parse(readFileSync(at(CONFIG), 'utf8'));
    expect(config.rule_files).toEqual(['alerts.yml']);
    expect(config.scrape_configs.map((s) => s.job_name)).toContain('alda');
    expect(promtool(['check', 'config', CONFIG])).toContain('is valid prometheus config file');
  });

  it('issue 44 §3: the rules at least cover what the issue lists', () => {
    expect(rules.groups.map((g) => g.name)).toEqual(['alda']);
    const names = alerts.map((a) => a.alert);
    for (const required of [
      'AldaInstanceDown',
      'AldaHighErrorRate',
      'AldaSlowRequests',
      'AldaJobNotSucceeding',
      'AldaProvisioningOverdue',
      'AldaPaymentsStuck',
      'AldaListenLost',
      'AldaSmsFailures',
      'AldaDbPoolSaturated',
    ]) {
      expect(names).toContain(required);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it('issue 44 §3: every alert has a severity, a summary, a description and a runbook section in docs/operations.md', () => {
    const sections = headings(readFileSync(at(RUNBOOKS), 'utf8'));
    const start = sections.findIndex((h) => h.level === 2 && h.text === 'Alerts and runbooks');
    expect(start, `${RUNBOOKS} has no "## Alerts and runbooks"`).toBeGreaterThanOrEqual(0);
    const end = sections.findIndex((h, i) => i > start && h.level <= 2);
    const runbookAnchors = sections
      .slice(start + 1, end === -1 ? undefined : end)
      .map((h) => h.anchor);

    const problems = [];
    for (const alert of alerts) {
      const { severity } = alert.labels ?? {};
      const { summary, description, runbook_url: runbook } = alert.annotations ?? {};
      if (!['page', 'ticket'].includes(severity))
        problems.push(`${alert.alert}: severity ${severity}`);
      if (!summary?.trim()) problems.push(`${alert.alert}: no summary`);
      if (!description?.trim()) problems.push(`${alert.alert}: no description`);
      if (!runbook?.startsWith(RUNBOOK_BASE)) {
        problems.push(`${alert.alert}: runbook_url ${runbook} is not under ${RUNBOOK_BASE}`);
      } else if (!runbookAnchors.includes(runbook.slice(RUNBOOK_BASE.length))) {
        problems.push(
          `${alert.alert}: no heading #${runbook.slice(RUNBOOK_BASE.length)} under "Alerts and runbooks"`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('issue 44 §3: every alert fires in a case of alerts.test.yml, labels and annotations checked, and stays silent in another', () => {
    const fires = new Set();
    const silent = new Set();
    const problems = [];
    for (const group of alertTests.tests) {
      for (const test of group.alert_rule_test ?? []) {
        const expected = test.exp_alerts ?? [];
        if (expected.length === 0) silent.add(test.alertname);
        else fires.add(test.alertname);
        for (const alert of expected) {
          if (alert.exp_labels?.severity === undefined) {
            problems.push(`${group.name}: ${test.alertname} without exp_labels.severity`);
          }
          for (const key of ['summary', 'description', 'runbook_url']) {
            if (!alert.exp_annotations?.[key]) {
              problems.push(`${group.name}: ${test.alertname} without exp_annotations.${key}`);
            }
          }
        }
      }
    }
    for (const { alert } of alerts) {
      if (!fires.has(alert)) problems.push(`${alert}: no case where it fires`);
      if (!silent.has(alert)) problems.push(`${alert}: no case where it stays silent`);
    }
    expect(problems).toEqual([]);
  });

  it('issue 44 §3: the rules use only the metric and label names of metric-names.json', () => {
    const exprs = alerts.map((a) => ({ where: a.alert, expr: a.expr }));
    expect(unknownNames(exprs)).toEqual([]);
  });

  it('issue 44 §3: the name check finds a misspelt metric, an unknown histogram series and a wrong label', () => {
    const planted = [
      { where: 'a', expr: 'rate(alda_http_request_duration_second_count{job="alda"}[5m]) > 0' },
      { where: 'b', expr: 'sum(rate(alda_job_round_failures_total_bucket[5m]))' },
      { where: 'c', expr: 'max by (instnace) (process_resident_memory_byte)' },
    ];
    expect(unknownNames(planted)).toEqual([
      'a: metric alda_http_request_duration_second_count',
      'b: metric alda_job_round_failures_total_bucket',
      'c: metric process_resident_memory_byte',
      'c: label instnace',
    ]);
  });
});

describe('issue 44 §3: Grafana dashboard (deploy/grafana/alda.json)', () => {
  it('issue 44 §3: the dashboard has a Prometheus datasource variable, an instance variable and unique panel ids', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(39);
    const variables = new Map(dashboard.templating.list.map((v) => [v.name, v]));
    expect(variables.get('datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(variables.get('instance')).toMatchObject({
      type: 'query',
      includeAll: true,
      multi: true,
    });
    const panels = allPanels(dashboard.panels);
    const ids = panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of panels.filter((p) => p.type !== 'row')) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        expect(target.expr, panel.title).toContain('instance=~"$instance"');
      }
    }
  });

  it('issue 44 §3: the dashboard uses only the metric and label names of metric-names.json', () => {
    const exprs = dashboardExprs.map(({ panel, expr }) => ({ where: panel, expr }));
    const instanceQuery = dashboard.templating.list.find((v) => v.name === 'instance').query.query;
    exprs.push({
      where: 'variable instance',
      expr: /^label_values\((.*), \w+\)$/.exec(instanceQuery)[1],
    });
    expect(unknownNames(exprs)).toEqual([]);
  });

  it('issue 44 §3: every query of the dashboard parses as PromQL (promtool check rules)', () => {
    // Grafana's variables replaced by values Prometheus accepts, each query made a recording rule.
    const file = path.join(tmp, 'dashboard-queries.yml');
    const group = {
      name: 'dashboard',
      rules: dashboardExprs.map(({ expr }, i) => ({
        record: `alda_dashboard_query_${i}`,
        expr: expr.replaceAll('$__rate_interval', '1m').replaceAll('$instance', '.*'),
      })),
    };
    writeFileSync(file, JSON.stringify({ groups: [group] }));
    expect(promtool(['check', 'rules', file])).toContain(
      `SUCCESS: ${dashboardExprs.length} rules found`,
    );
  });

  it('issue 44 §3: the dashboard covers every metric of the API', () => {
    const used = new Set(
      dashboardExprs.flatMap(({ expr }) =>
        promqlNames(expr).names.map((n) =>
          byName.has(n) ? n : n.replace(/_(bucket|sum|count)$/, ''),
        ),
      ),
    );
    const missing = metrics
      .filter((m) => m.source === 'alda' && !used.has(m.name))
      .map((m) => m.name);
    expect(missing).toEqual([]);
  });
});
