/** Log entry types (seed 002 §4). */
export const LOG_TYPE = { unknown: 0, topUp: 1, consume: 2, manage: 3, system: 4 } as const
export type LogType = (typeof LOG_TYPE)[keyof typeof LOG_TYPE]
