/** Seed 000 §9: models shown before the list collapses. */
export const VISIBLE_MODEL_COUNT = 10

export const SETTING_TABS = ['personal'] as const
export type SettingTab = (typeof SETTING_TABS)[number]
export const DEFAULT_SETTING_TAB: SettingTab = 'personal'
