/**
 * Drawing (Midjourney) and async (Suno) tasks: states, submit codes, platforms and the console's
 * defaults (docs/specification/tasks.md#the-task-lists). Zod-free, for the task pages (`task.ts` re-exports them).
 */

/**
 * A task's status as midjourney-proxy and the Suno APIs report it (docs/specification/tasks.md#states). An empty status
 * means the task is still being submitted.
 */
export const TASK_STATUS = {
	notStart: 'NOT_START',
	submitted: 'SUBMITTED',
	queued: 'QUEUED',
	inProgress: 'IN_PROGRESS',
	modal: 'MODAL',
	success: 'SUCCESS',
	failure: 'FAILURE',
	unknown: 'UNKNOWN',
} as const
export type TaskStatus = (typeof TASK_STATUS)[keyof typeof TASK_STATUS]

/** A task in one of these states is over: its hold is settled (SUCCESS) or returned (FAILURE). */
export const FINISHED_TASK_STATUSES: readonly string[] = [TASK_STATUS.success, TASK_STATUS.failure]
export const isFinishedTaskStatus = (status: string) => FINISHED_TASK_STATUSES.includes(status)

/**
 * midjourney-proxy's submit codes (docs/specification/tasks.md#states): 1 submitted, 21 the task exists already (shown
 * as waiting), 22 queued (shown as duplicate submission); 0 means never submitted.
 */
export const MJ_SUBMIT_CODE = { notSubmitted: 0, submitted: 1, exists: 21, queued: 22 } as const
/** The codes under which the upstream took the task. */
export const MJ_ACCEPTED_CODES: readonly number[] = [MJ_SUBMIT_CODE.submitted, MJ_SUBMIT_CODE.exists, MJ_SUBMIT_CODE.queued]

/** The drawing actions (midjourney-proxy's task `action`). */
export const MJ_ACTION = {
	imagine: 'IMAGINE',
	describe: 'DESCRIBE',
	blend: 'BLEND',
	upscale: 'UPSCALE',
	variation: 'VARIATION',
	reroll: 'REROLL',
	inpaint: 'INPAINT',
	modal: 'MODAL',
	zoom: 'ZOOM',
	customZoom: 'CUSTOM_ZOOM',
	shorten: 'SHORTEN',
	highVariation: 'HIGH_VARIATION',
	lowVariation: 'LOW_VARIATION',
	pan: 'PAN',
	swapFace: 'SWAP_FACE',
	upload: 'UPLOAD',
} as const
export type MjAction = (typeof MJ_ACTION)[keyof typeof MJ_ACTION]

/** Async task platforms and actions (docs/specification/tasks.md#states). */
export const TASK_PLATFORM = { midjourney: 'midjourney', suno: 'suno', video: 'video' } as const
/** A video task's action: a new video, or a remix of one (OpenAI's Videos API). */
export const VIDEO_ACTION = { generate: 'GENERATE', remix: 'REMIX' } as const
export const SUNO_ACTION = { music: 'MUSIC', lyrics: 'LYRICS' } as const
export type SunoAction = (typeof SUNO_ACTION)[keyof typeof SUNO_ACTION]

const SECONDS_PER_DAY = 24 * 60 * 60
/** The drawing log opens on the last 30 days (docs/specification/tasks.md#the-task-lists). */
export const MJ_DEFAULT_LOOKBACK_SECONDS = 30 * SECONDS_PER_DAY
/** A task that took longer than this many seconds shows its duration in red (docs/specification/tasks.md#the-task-lists). */
export const TASK_SLOW_SECONDS = 60
