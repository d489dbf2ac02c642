/**
 * The task platforms the polling round asks after, one poller each (task-poller.ts). A new platform
 * is a provider's adaptor plus one line here; the round, the timeouts and the billing are shared.
 */
import { TASK_PLATFORM } from '@shared/task-constants'
import { batchPoller } from './batch-poller'
import type { TaskPoller } from './task-poller'
import { readBilling } from './task-rows'
import { videoPoller } from './videos/video-polling'

export const TASK_POLLERS: readonly TaskPoller[] = [
	// midjourney-proxy knows a drawing by the id Ferry shows (the upstream's own).
	batchPoller({ platform: TASK_PLATFORM.midjourney, failedLine: 'task.drawing_failed', upstreamId: (row) => row.taskId }),
	// A Suno task is shown under Ferry's id; the upstream's is kept with its billing.
	batchPoller({ platform: TASK_PLATFORM.suno, failedLine: 'task.failed', upstreamId: (row) => readBilling(row.privateData).upstream_id ?? '' }),
	videoPoller,
]
