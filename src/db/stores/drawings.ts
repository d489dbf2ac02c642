/**
 * A drawing (Midjourney) task is a row of `tasks` with platform `midjourney`: the columns every task shares
 * (owner, channel, status, times, money, midjourney-proxy's `properties`, its id as `task_id`) and
 * the drawing's own fields as a typed payload in `data`. A `Drawing` is that row read back in the
 * drawing's own terms, as the `/mj` answers and the drawing log show it.
 */
import { z } from 'zod'
import { and, type SQL, eq } from 'drizzle-orm'
import { TASK_PLATFORM } from '@shared/task-constants'
import type { Tables } from '@/db'

type TaskRecord = Tables['tasks']['$inferSelect']
type TaskValues = Tables['tasks']['$inferInsert']

/** The drawing's own fields, kept as JSON in `data` (migration 0013 wrote the moved rows' in this shape). */
const drawingPayloadSchema = z.object({
	/** midjourney-proxy's submit code. */
	code: z.number().catch(0),
	prompt: z.string().catch(''),
	promptEn: z.string().catch(''),
	description: z.string().catch(''),
	state: z.string().catch(''),
	imageUrl: z.string().catch(''),
	/** midjourney-proxy's `buttons`, as JSON text ('' when absent). */
	buttons: z.string().catch(''),
})
export type DrawingPayload = z.infer<typeof drawingPayloadSchema>

const EMPTY_PAYLOAD: DrawingPayload = { code: 0, prompt: '', promptEn: '', description: '', state: '', imageUrl: '', buttons: '' }

export type Drawing = Omit<TaskRecord, 'taskId' | 'data' | 'platform' | 'createdAt' | 'updatedAt'> & DrawingPayload & { mjId: string }

/** A drawing's payload read from `data`; empty fields where it has none (or is not JSON). */
export function drawingPayloadOf(data: string): DrawingPayload {
	try {
		return drawingPayloadSchema.parse({ ...EMPTY_PAYLOAD, ...(data ? JSON.parse(data) as object : {}) })
	} catch {
		return EMPTY_PAYLOAD
	}
}

/** A drawing task's row in the drawing's terms. */
export function drawingOf(row: TaskRecord): Drawing {
	const { taskId, data, platform: _platform, createdAt: _createdAt, updatedAt: _updatedAt, ...shared } = row
	return { ...shared, ...drawingPayloadOf(data), mjId: taskId }
}

const payloadText = (payload: DrawingPayload) => JSON.stringify(drawingPayloadSchema.parse(payload))

export type DrawingValues = Partial<Omit<Drawing, 'id'>>

/** The `tasks` values of a new drawing task; created and updated at its own times, as migration 0013 dated the moved ones. */
export function drawingValues(values: DrawingValues): Omit<TaskValues, 'id'> {
	const { mjId, code, prompt, promptEn, description, state, imageUrl, buttons, ...shared } = values
	const { submitTime = 0, startTime = 0, finishTime = 0 } = shared
	return {
		...shared,
		...(submitTime ? { createdAt: submitTime, updatedAt: Math.max(submitTime, startTime, finishTime) } : {}),
		platform: TASK_PLATFORM.midjourney,
		taskId: mjId ?? '',
		data: payloadText({ ...EMPTY_PAYLOAD, ...defined({ code, prompt, promptEn, description, state, imageUrl, buttons }) }),
	}
}

function defined<Values extends object>(values: Values): Partial<Values> {
	return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<Values>
}

/** Drawing tasks only, with the given conditions. */
export const isDrawing = ({ tasks }: Pick<Tables, 'tasks'>, ...conditions: (SQL | undefined)[]) => and(eq(tasks.platform, TASK_PLATFORM.midjourney), ...conditions)

/** What an upstream report says of a drawing's own fields. */
export type ReportedDrawing = Pick<DrawingPayload, 'imageUrl' | 'promptEn' | 'description' | 'state' | 'buttons'>

/** A drawing's payload with what a report says merged in (an empty field keeps the kept one); the same text when nothing changed. */
export function mergedDrawingData(data: string, reported: ReportedDrawing): string {
	const kept = drawingPayloadOf(data)
	const merged: DrawingPayload = {
		...kept,
		imageUrl: reported.imageUrl || kept.imageUrl,
		promptEn: reported.promptEn || kept.promptEn,
		description: reported.description || kept.description,
		state: reported.state || kept.state,
		buttons: reported.buttons || kept.buttons,
	}
	const changed = (Object.keys(merged) as (keyof DrawingPayload)[]).some((key) => merged[key] !== kept[key])
	return changed ? payloadText(merged) : data
}
