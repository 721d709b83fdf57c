import { logger } from '../core/logger';

/** Resolves on the first SIGINT or SIGTERM; a second signal exits at once for an impatient operator. */
export function untilShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'shutting down (send the signal again to exit at once)');
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** The first SIGINT/SIGTERM as a promise and as an AbortSignal, for waits that must end when the operator stops. */
export function onShutdownSignal(): { requested: Promise<NodeJS.Signals>; signal: AbortSignal } {
  const controller = new AbortController();
  const requested = untilShutdownSignal().then((signal) => {
    controller.abort();
    return signal;
  });
  return { requested, signal: controller.signal };
}

export type StopStep = [string, (() => Promise<void>) | undefined];

/**
 * Runs stop steps in order (an inner list stops its parts at the same time), logging each as it stops, with how long
 * it took, and logging (not throwing) failures so every later step still runs; ends with one line giving the total.
 */
export async function stopAll(steps: (StopStep | StopStep[])[]): Promise<void> {
  const started = Date.now();
  const stopOne = async ([name, stop]: StopStep) => {
    if (!stop) return;
    const at = Date.now();
    logger.info(`stopping ${name}`);
    try {
      await stop();
      logger.info({ ms: Date.now() - at }, `${name} stopped`);
    } catch (err) {
      logger.error({ err }, `${name} did not stop cleanly`);
    }
  };
  for (const step of steps) {
    if (typeof step[0] === 'string') await stopOne(step as StopStep);
    else await Promise.all((step as StopStep[]).map(stopOne));
  }
  logger.info(`chasqui stopped in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
