import { startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../simulator/server';
import { testConfig } from './services';

/**
 * The simulator as the suites start it: judging by the run's rule calendar (CHASQUI_RULE_DATES), with SUNAT's sending
 * window as testConfig has it (off: fixtures carry old issue dates) unless the suite passes its own.
 */
export function startTestSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const config = testConfig();
  return startSimulator({ rules: config.rules, sendingWindowDays: config.simulatorSendingWindowDays, ...options });
}
