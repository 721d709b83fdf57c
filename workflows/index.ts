/**
 * Every workflow the chasqui worker runs, one module per capability. Deterministic code only: workflows carry ids
 * and small state, never XML, keys or passwords; activities (activities/) do the I/O.
 */
export { documentWorkflow } from './document';
