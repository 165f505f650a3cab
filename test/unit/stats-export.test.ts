import { expect, test } from 'bun:test';
import { openStats, type StatsParam } from '../../src/kernel/stats';
import { csvCell, encodeRows, lineQuery } from '../../src/features/stats/export';

test('CSV and NDJSON lines built by DuckDB equal the reference encoders (quoting, formula prefix, nulls, numbers)', async () => {
  const st = await openStats(':memory:');
  try {
    const nasty = ['plain', 'with,comma', 'with "quotes"', 'line\nbreak', '=SUM(A1)', '+1', '-2', '@x', 'עברית', '', 'cr\r', 'tab\tstart'];
    await st.run('CREATE TABLE t (s VARCHAR, n BIGINT, d DOUBLE, b BOOLEAN)');
    const rows: StatsParam[][] = nasty.map((v, i) => [v, -i, i + 0.5, i % 2 === 0]);
    await st.append('t', [...rows, [null, null, null, null]]);
    const cols = ['s', 'n', 'd', 'b'];
    const csv = await st.all<{ line: string }>(lineQuery('SELECT * FROM t', cols, 'csv', 1000), []);
    const ref = await st.all<Record<string, unknown>>('SELECT s, n::DOUBLE AS n, d, b FROM t');
    expect(csv.map((r) => r.line)).toEqual(ref.map((r) => cols.map((c) => (c === 'n' && r[c] !== null ? csvCell(String(r[c])).replace(/^'/, '') : csvCell(r[c] as never))).join(',')));
    expect(csvCell('=1+1')).toBe("'=1+1");
    const nd = await st.all<{ line: string }>(lineQuery('SELECT * FROM t', cols, 'ndjson', 1000), []);
    expect(nd.map((r) => JSON.parse(r.line))).toEqual(JSON.parse(`[${encodeRows(ref, cols, 'ndjson').trim().split('\n').join(',')}]`));
  } finally { st.close(); }
});
