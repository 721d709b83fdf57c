import fs from 'node:fs';
import Mocha from 'mocha';

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_HOOK_BEGIN, EVENT_HOOK_END } = Mocha.Runner.constants;
const SHOWN = 30;

/**
 * Mocha's spec output, then each test file's wall time (its root-level suites, hooks included) and the slowest hooks:
 * where a run's minutes go (`npm run test:timings`). TIMINGS_JSON=<file> also writes every file's time there.
 */
class TimingsReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const files = new Map<string, { ms: number; tests: number }>();
    const hooks: { title: string; file: string; ms: number }[] = [];
    const started = new Map<Mocha.Suite | Mocha.Hook, number>();
    const fileOf = (file: string | undefined) => (file ?? '(root)').replace(`${process.cwd()}/`, '');

    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.parent?.root) started.set(suite, performance.now());
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      const start = started.get(suite);
      if (start === undefined) return;
      const entry = files.get(fileOf(suite.file)) ?? { ms: 0, tests: 0 };
      entry.ms += performance.now() - start;
      entry.tests += suite.total();
      files.set(fileOf(suite.file), entry);
    });
    runner.on(EVENT_HOOK_BEGIN, (hook: Mocha.Hook) => started.set(hook, performance.now()));
    runner.on(EVENT_HOOK_END, (hook: Mocha.Hook) => {
      const start = started.get(hook);
      if (start !== undefined)
        hooks.push({ title: hook.fullTitle(), file: fileOf(hook.file), ms: performance.now() - start });
    });
    runner.once(EVENT_RUN_END, () => {
      const byTime = [...files].sort((a, b) => b[1].ms - a[1].ms);
      const total = byTime.reduce((sum, [, f]) => sum + f.ms, 0);
      const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(7);
      console.log(`\n  Slowest files (of ${files.size}, ${seconds(total).trim()} s in all):`);
      for (const [file, f] of byTime.slice(0, SHOWN))
        console.log(`  ${seconds(f.ms)} s  ${String(f.tests).padStart(4)} tests  ${file}`);
      console.log('\n  Slowest hooks:');
      for (const h of hooks.sort((a, b) => b.ms - a.ms).slice(0, SHOWN))
        console.log(`  ${seconds(h.ms)} s  ${h.file}  ${h.title}`);
      if (process.env.TIMINGS_JSON)
        fs.writeFileSync(
          process.env.TIMINGS_JSON,
          JSON.stringify({ files: Object.fromEntries(byTime), hooks }, null, 2),
        );
    });
  }
}

export = TimingsReporter;
