/**
 * The drawing and async task lists (docs/specification/tasks.md#the-task-lists): `GET /api/mj/`, `/api/mj/self/`,
 * `GET /api/task/`, `/api/task/self`. Times are unix seconds.
 */
import { z } from 'zod'
import { pageQuerySchema } from './api'

export * from './task-constants'

const optionalNumber = z.coerce.number().int().min(0).optional()
const optionalText = z.string().trim().max(200).optional().default('')

/** 0 (or an empty value) in `channel_id` and the time bounds means no filter; `channel_id` is read for admins only. */
const taskListQuerySchema = pageQuerySchema.extend({
	channel_id: optionalNumber,
	start_timestamp: optionalNumber,
	end_timestamp: optionalNumber,
})
/** What both task lists filter on besides their own id. */
export type TaskListQuery = z.infer<typeof taskListQuerySchema>

export const midjourneyQuerySchema = taskListQuerySchema.extend({ mj_id: optionalText })
export type MidjourneyQuery = z.infer<typeof midjourneyQuerySchema>

export const taskQuerySchema = taskListQuerySchema.extend({ task_id: optionalText })
export type TaskQuery = z.infer<typeof taskQuerySchema>

/** A drawing task as its owner sees it (docs/specification/tasks.md#the-task-lists); `image_url` goes through Ferry when MjForwardUrlEnabled. */
export const midjourneyEntrySchema = z.object({
	id: z.number(),
	user_id: z.number(),
	code: z.number(),
	action: z.string(),
	mj_id: z.string(),
	prompt: z.string(),
	prompt_en: z.string(),
	description: z.string(),
	state: z.string(),
	submit_time: z.number(),
	start_time: z.number(),
	finish_time: z.number(),
	image_url: z.string(),
	status: z.string(),
	progress: z.string(),
	fail_reason: z.string(),
	quota: z.number(),
})
export type MidjourneyEntry = z.infer<typeof midjourneyEntrySchema>

export const adminMidjourneyEntrySchema = midjourneyEntrySchema.extend({ channel_id: z.number() })
export type AdminMidjourneyEntry = z.infer<typeof adminMidjourneyEntrySchema>

/** An async task as its owner sees it (docs/specification/tasks.md#the-task-lists); `data` is what the upstream reported. */
export const taskEntrySchema = z.object({
	id: z.number(),
	user_id: z.number(),
	task_id: z.string(),
	platform: z.string(),
	action: z.string(),
	status: z.string(),
	fail_reason: z.string(),
	submit_time: z.number(),
	start_time: z.number(),
	finish_time: z.number(),
	progress: z.string(),
	quota: z.number(),
	data: z.unknown(),
	/** A video task's request and its player's source (Ferry's signed content link); null for other tasks. */
	video: z.object({
		model: z.string(),
		seconds: z.number(),
		size: z.string(),
		prompt: z.string(),
		content_url: z.string(),
	}).nullable(),
})
export type TaskEntry = z.infer<typeof taskEntrySchema>

export const adminTaskEntrySchema = taskEntrySchema.extend({ channel_id: z.number() })
export type AdminTaskEntry = z.infer<typeof adminTaskEntrySchema>
