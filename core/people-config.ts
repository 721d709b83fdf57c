/** Console users' settings (issue 43, docs/configuration.md), read for core/config.ts through env-values.ts. */
import { int } from './env-values';

export interface PeopleConfig {
  /** How long an invitation link works (CHASQUI_INVITE_HOURS, default 72). */
  inviteSeconds: number;
  /** How long a password reset link works (CHASQUI_RESET_MINUTES, default 30). */
  resetSeconds: number;
  /** A sensitive change asks for the second factor again past this (CHASQUI_STEP_UP_MINUTES, default 5). */
  stepUpSeconds: number;
}

export interface PeopleSettings {
  people: PeopleConfig;
}

export const peopleSettingsOf = (env: NodeJS.ProcessEnv): PeopleSettings => ({
  people: {
    inviteSeconds: int(env, 'CHASQUI_INVITE_HOURS', 72, 1) * 3600,
    resetSeconds: int(env, 'CHASQUI_RESET_MINUTES', 30, 1) * 60,
    stepUpSeconds: int(env, 'CHASQUI_STEP_UP_MINUTES', 5, 1) * 60,
  },
});
