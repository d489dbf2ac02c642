/**
 * The Suno relay (docs/architecture.md#the-task-pipeline): `POST /suno/submit/{music,lyrics}` submits a task and answers its
 * id (Ferry's own: the upstream's stays private), `POST /suno/fetch {ids}` and `GET
 * /suno/fetch/{id}` answer from Ferry's task store, scoped to the caller.
 */
import { and, eq } from 'drizzle-orm'
import { SUNO_ACTION, TASK_PLATFORM, TASK_STATUS } from '@shared/task-constants'
import type { Dependencies } from '@/dependencies'
import { taskFields } from '@/db/stores/task-fields'
import { equalsText, inTexts } from '@/db/stored-text'
import { nowSeconds } from '@/lib/clock'
import { randomString } from '@/lib/crypto'
import { relayErrors } from '../errors'
import type { RelayServices } from '../services'
import type { RelayCaller } from '../caller'
import { sunoAnswer } from './answers'
import { abandonHold, prepareTask, recordAccepted, returnRefusedHold, sendTask } from './submission'
import { taskErrors } from './task-errors'
import { readBilling, recordTask, taskBook, type TaskRow } from './task-rows'

/** new-api's default model version for a music task that names none. */
const DEFAULT_MUSIC_VERSION = 'chirp-v3-0'
const PUBLIC_ID_PREFIX = 'task_'
const PUBLIC_ID_LENGTH = 28
const MAX_FETCHED_IDS = 100
const PROGRESS_START = '0%'

const ACTIONS = { music: SUNO_ACTION.music, lyrics: SUNO_ACTION.lyrics } as const

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

async function ownTask({ store }: Dependencies, userId: number, taskId: string): Promise<TaskRow | undefined> {
	const { tasks } = store.tables
	const [row] = await store.db.select().from(tasks)
		.where(and(eq(tasks.userId, userId), eq(tasks.platform, TASK_PLATFORM.suno), equalsText(tasks.taskId, taskId))).limit(1)
	return row
}

interface SongInput {
	caller: RelayCaller
	/** The path's `music` or `lyrics`, in any case. */
	action: string
	body: Record<string, unknown>
	clientAddress: string
}

export async function submitSong(dependencies: Dependencies, relay: RelayServices, input: SongInput): Promise<Response> {
	const name = input.action.toLowerCase()
	if (name !== 'music' && name !== 'lyrics') throw relayErrors.badRequest('the action must be music or lyrics')
	const action = ACTIONS[name]
	const body = { ...input.body }
	if (action === SUNO_ACTION.lyrics && !text(body.prompt)) throw relayErrors.badRequest('prompt is required')
	if (action === SUNO_ACTION.music && !text(body.mv)) body.mv = DEFAULT_MUSIC_VERSION
	// Continuing a clip acts on an earlier task: the caller's own, on its channel (and key), under its upstream id.
	let channelId: number | undefined
	let keyIndex: number | undefined
	if (text(body.continue_clip_id)) {
		const original = await ownTask(dependencies, input.caller.user.id, text(body.task_id))
		if (!original) throw taskErrors.notFound()
		channelId = original.channelId
		const billing = readBilling(original.privateData)
		keyIndex = billing.key_index
		body.task_id = billing.upstream_id
	}
	const prepared = await prepareTask(dependencies, relay, { platform: 'suno', caller: input.caller, model: `suno_${name}`, clientAddress: input.clientAddress, channelId, keyIndex })
	const outcome = await sendTask(dependencies, relay, prepared, `/suno/submit/${name}`, body)
	try {
		if (!outcome.accepted) {
			await returnRefusedHold(relay, prepared, outcome.description)
			return Response.json({ code: typeof outcome.code === 'string' ? outcome.code : 'upstream_refused', message: outcome.description, data: null }, { status: outcome.status })
		}
		const publicId = `${PUBLIC_ID_PREFIX}${randomString(PUBLIC_ID_LENGTH)}`
		const book = taskBook(relay.ledger.dialect, dependencies.options, nowSeconds())
		await recordAccepted(prepared, () => relay.ledger.transaction((tx, tables) => recordTask(tx, tables, book, {
			taskId: publicId,
			platform: TASK_PLATFORM.suno,
			userId: input.caller.user.id,
			group: prepared.billing.group,
			channelId: prepared.channel.id,
			quota: prepared.amount,
			cost: prepared.cost ?? null,
			action,
			status: TASK_STATUS.submitted,
			progress: PROGRESS_START,
			submitTime: prepared.submittedAt,
			properties: JSON.stringify({ input: text(body.prompt) || text(body.gpt_description_prompt), model: text(body.mv) }),
			privateData: JSON.stringify({ ...prepared.billing, upstream_id: outcome.upstreamId }),
			requestId: prepared.requestId,
		})))
		return sunoAnswer(publicId)
	} catch (error) {
		await abandonHold(prepared)
		throw error
	}
}

/** A task as the Suno API's fetch answers it. */
const songView = (row: TaskRow) => taskFields(row)

export async function fetchSong(dependencies: Dependencies, caller: RelayCaller, taskId: string): Promise<Response> {
	const row = await ownTask(dependencies, caller.user.id, taskId)
	if (!row) throw taskErrors.notFound()
	return sunoAnswer(songView(row))
}

export async function fetchSongs(dependencies: Dependencies, caller: RelayCaller, body: Record<string, unknown>): Promise<Response> {
	const ids = body.ids
	if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) throw relayErrors.badRequest('ids must be a list of task ids')
	if (ids.length > MAX_FETCHED_IDS) throw relayErrors.badRequest(`ids may name at most ${MAX_FETCHED_IDS} tasks`)
	if (ids.length === 0) return sunoAnswer([])
	const { store } = dependencies
	const { tasks } = store.tables
	const rows = await store.db.select().from(tasks)
		.where(and(eq(tasks.userId, caller.user.id), eq(tasks.platform, TASK_PLATFORM.suno), inTexts(tasks.taskId, ids as string[])))
	return sunoAnswer(rows.map(songView))
}
