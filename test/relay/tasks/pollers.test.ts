/**
 * The polling round asks after every platform a provider takes tasks for: each `TaskAdaptor`'s
 * platform and the video platform (any `VideoAdaptor`) have exactly one poller in the list the
 * round iterates, so a provider's tasks can never be submitted and then left unpolled.
 */
import { describe, expect, test } from 'bun:test'
import { TASK_PLATFORM } from '@shared/task-constants'
import { channelTypeDescriptions, loadAdaptor } from '@/relay/providers/registry'
import { TASK_POLLERS } from '@/relay/tasks/pollers'

describe('the task pollers', () => {
	test('cover each platform a provider serves, once each, and no other', async () => {
		const adaptors = await Promise.all(channelTypeDescriptions().map(async ({ type }) => (await loadAdaptor(type))!))
		const served = new Set(adaptors.flatMap((adaptor) => [
			...(adaptor.tasks ? [adaptor.tasks.platform] : []),
			...(adaptor.videos ? [TASK_PLATFORM.video] : []),
		]))
		const polled = TASK_POLLERS.map((poller) => poller.platform)
		expect(new Set(polled).size).toBe(polled.length)
		expect([...polled].sort()).toEqual([...served].sort())
		expect(polled.sort()).toEqual(Object.values(TASK_PLATFORM).sort())
	})
})
