import { fromMarkdown } from 'mdast-util-from-markdown';
const cases = {brackets: n => '['.repeat(n), bracketWords: n => '[a '.repeat(n/3), bracketLines: n => '[a\n'.repeat(n/3), closeBrackets: n=> ']'.repeat(n), pairs: n => '[]'.repeat(n/2), stars: n => '*'.repeat(n), underscores: n => '_a'.repeat(n/2), backticks: n => '`'.repeat(n), ticksMixed: n => '`a'.repeat(n/2), lt: n => '<'.repeat(n), amp: n => '&'.repeat(n)};
const [name, n] = process.argv.slice(2);
const t0 = performance.now();
try { fromMarkdown(cases[name](Number(n))); } catch (e) { console.log(name, n, 'threw', e.message); }
console.log(name, n, Math.round(performance.now() - t0), 'ms');
