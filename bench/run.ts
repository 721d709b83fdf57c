/** Runs a bench's main and exits: 0 when it is done, 1 with the error printed (open handles never keep it alive). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
