/** Seed 000 §9: models shown before the list collapses. */
export const VISIBLE_MODEL_COUNT = 10

/** Seed 000 §2: personal for everyone; the other three for the super admin only. */
export const SETTING_TABS = ['personal', 'operation', 'system', 'other'] as const
export type SettingTab = (typeof SETTING_TABS)[number]
export const DEFAULT_SETTING_TAB: SettingTab = 'personal'
export const ROOT_SETTING_TABS: readonly SettingTab[] = ['operation', 'system', 'other']

/** Seed 000 §9: the visual model-ratio table shows this many rows a page. */
export const RATIO_TABLE_PAGE_SIZE = 10

/** The data dashboard's granularities (seed 000 §3, `DataExportDefaultTime`). */
export const DATA_EXPORT_GRANULARITIES = ['hour', 'day', 'week'] as const
