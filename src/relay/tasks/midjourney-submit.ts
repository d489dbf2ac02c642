/**
 * `POST /mj/submit/…` (and `/{mode}/mj/submit/…`, `/mj/insight-face/swap`): one drawing task from
 * request to record (docs/architecture.md#the-task-pipeline). The drawing options act here: MjAccountFilterEnabled keeps
 * `accountFilter`, MjNotifyEnabled keeps a checked `notifyHook`, MjModeClearEnabled strips the
 * speed flags from the prompt, MjActionCheckSuccessEnabled holds follow-ups until their task
 * succeeded. A follow-up acts only on the caller's own task, on that task's channel (and key).
 */
import { desc, eq } from 'drizzle-orm'
import { MJ_ACTION, MJ_SUBMIT_CODE, TASK_STATUS } from '@shared/task-constants'
import type { Dependencies } from '@/dependencies'
import { drawingOf, drawingValues, isDrawing } from '@/db/stores/drawings'
import { equalsText } from '@/db/stored-text'
import { nowSeconds } from '@/lib/clock'
import type { RelayServices } from '../services'
import type { RelayCaller } from '../caller'
import type { TaskSubmitOutcome } from '../providers/types'
import { type MjSubmitPath, clearModes, modelOfAction, resolveAction, type ResolvedAction } from './midjourney-actions'
import { checkNotifyHook } from './notify-hook'
import { abandonHold, type PreparedTask, prepareTask, recordAccepted, returnRefusedHold, sendTask } from './submission'
import { taskErrors } from './task-errors'
import { type DrawingRow, readBilling, recordTask, taskBook } from './task-rows'

const PROGRESS_START = '0%'
const PROGRESS_DONE = '100%'

/** The caller's own drawing task by its midjourney-proxy id (the newest, should an upstream reuse ids). */
export async function ownDrawing({ store }: Dependencies, userId: number, mjId: string): Promise<DrawingRow | undefined> {
	const { tasks } = store.tables
	const [row] = await store.db.select().from(tasks)
		.where(isDrawing(store.tables, eq(tasks.userId, userId), equalsText(tasks.taskId, mjId))).orderBy(desc(tasks.id)).limit(1)
	return row && drawingOf(row)
}

/** The body as the upstream gets it: the options applied to the client's own fields. */
async function upstreamBody(dependencies: Dependencies, body: Record<string, unknown>): Promise<Record<string, unknown>> {
	const { options } = dependencies
	const { accountFilter, notifyHook, ...rest } = body
	const sent: Record<string, unknown> = rest
	if (options.get('MjAccountFilterEnabled') && accountFilter !== undefined) sent.accountFilter = accountFilter
	if (options.get('MjNotifyEnabled') && typeof notifyHook === 'string' && notifyHook.trim()) {
		await checkNotifyHook(notifyHook.trim())
		sent.notifyHook = notifyHook.trim()
	}
	if (options.get('MjModeClearEnabled') && typeof sent.prompt === 'string') sent.prompt = clearModes(sent.prompt)
	return sent
}

/** The task a follow-up acts on: the caller's, and (MjActionCheckSuccessEnabled) finished, except for a modal step. */
async function followedTask(dependencies: Dependencies, caller: RelayCaller, resolved: ResolvedAction): Promise<DrawingRow | undefined> {
	if (!resolved.taskId) return undefined
	const original = await ownDrawing(dependencies, caller.user.id, resolved.taskId)
	if (!original) throw taskErrors.notFound()
	if (dependencies.options.get('MjActionCheckSuccessEnabled') && resolved.action !== MJ_ACTION.modal && original.status !== TASK_STATUS.success) {
		throw taskErrors.notFinished()
	}
	return original
}

/**
 * An accepted task at once finished: an upload, or a duplicate (21) of a task the upstream already
 * drew (its `properties` carry the status and image).
 */
function finishedAtOnce(resolved: ResolvedAction, outcome: Extract<TaskSubmitOutcome, { accepted: true }>) {
	if (resolved.action === MJ_ACTION.upload) return { imageUrl: '' }
	const { status, imageUrl } = outcome.properties
	if (outcome.code === MJ_SUBMIT_CODE.exists && status === TASK_STATUS.success && typeof imageUrl === 'string') return { imageUrl }
	return undefined
}

/** Inpaint and custom zoom answer 21 to ask for their modal step; every other accepted code reads as 1 to the client. */
const answeredCode = (resolved: ResolvedAction, code: number) =>
	code === MJ_SUBMIT_CODE.exists && (resolved.action === MJ_ACTION.inpaint || resolved.action === MJ_ACTION.customZoom) ? code : MJ_SUBMIT_CODE.submitted

interface SubmitInput {
	caller: RelayCaller
	path: MjSubmitPath
	/** '' or `/fast`, `/relax`, `/turbo`: passed upstream before `/mj`. */
	modePrefix: string
	body: Record<string, unknown>
	clientAddress: string
}

export async function submitDrawing(dependencies: Dependencies, relay: RelayServices, input: SubmitInput): Promise<Response> {
	const { caller, body } = input
	const resolved = resolveAction(input.path, body)
	const original = await followedTask(dependencies, caller, resolved)
	const sent = await upstreamBody(dependencies, body)
	const model = modelOfAction(resolved.action)
	// A follow-up goes to its task's channel, and to the key that submitted it while that key is usable.
	const keyIndex = original && readBilling(original.privateData).key_index
	const prepared = await prepareTask(dependencies, relay, { platform: 'midjourney', caller, model, clientAddress: input.clientAddress, channelId: original?.channelId, keyIndex })
	const prompt = original?.prompt ?? (typeof sent.prompt === 'string' ? sent.prompt : '')
	const outcome = await sendTask(dependencies, relay, prepared, `${input.modePrefix}/mj/${input.path}`, sent)
	try {
		if (!outcome.accepted) {
			await returnRefusedHold(relay, prepared, outcome.description)
			await record(dependencies, relay, prepared, {
				code: typeof outcome.code === 'number' ? outcome.code : MJ_SUBMIT_CODE.notSubmitted, action: resolved.action, mjId: '', prompt,
				description: outcome.description, status: TASK_STATUS.failure, progress: '', failReason: outcome.description, quota: 0, requestId: '',
			})
			return Response.json({ code: outcome.code, description: outcome.description, result: null, properties: outcome.properties }, { status: outcome.status })
		}
		const done = finishedAtOnce(resolved, outcome)
		const now = nowSeconds()
		await recordAccepted(prepared, () => record(dependencies, relay, prepared, {
			code: outcome.code, action: resolved.action, mjId: outcome.upstreamId, prompt, description: outcome.description,
			status: done ? TASK_STATUS.success : TASK_STATUS.submitted, progress: done ? PROGRESS_DONE : PROGRESS_START,
			imageUrl: done?.imageUrl ?? '', startTime: done ? now : 0, finishTime: done ? now : 0,
			quota: prepared.amount, requestId: prepared.requestId, cost: prepared.cost ?? null,
		}))
		return Response.json({ code: answeredCode(resolved, outcome.code), description: outcome.description, result: outcome.uploads ?? outcome.upstreamId, properties: outcome.properties })
	} catch (error) {
		// The hold of a task that could not be recorded goes back: nothing can bill it later.
		await abandonHold(prepared)
		throw error
	}
}

type DrawingValues = Pick<DrawingRow, 'code' | 'action' | 'mjId' | 'prompt' | 'description' | 'status' | 'progress' | 'quota' | 'requestId'>
	& Partial<Pick<DrawingRow, 'failReason' | 'imageUrl' | 'startTime' | 'finishTime' | 'cost'>>

async function record(dependencies: Dependencies, relay: RelayServices, prepared: PreparedTask, values: DrawingValues) {
	const book = taskBook(relay.ledger.dialect, dependencies.options, nowSeconds())
	await relay.ledger.transaction((tx, tables) => recordTask(tx, tables, book, drawingValues({
		...values,
		userId: prepared.call.caller.user.id,
		group: prepared.billing.group,
		channelId: prepared.channel.id,
		submitTime: prepared.submittedAt,
		privateData: JSON.stringify(prepared.billing),
	})))
}
