/** The margin report's groupings: zod-free, for the dashboard's first load. */
export const MARGIN_GROUPS = ['channel', 'model', 'user', 'day'] as const
export type MarginGroup = (typeof MARGIN_GROUPS)[number]
/** The key of the row that gathers plan sales where they belong to no channel or model. */
export const PLAN_SALES_KEY = 'plans'
