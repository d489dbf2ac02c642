/**
 * Midjourney Proxy (type 2) and Midjourney Proxy Plus (type 5): drawing tasks on a midjourney-proxy
 * deployment (NOTES.md). Both speak the same API; Plus deployments also take the `action`, `modal`
 * and `shorten` calls, whose paths the task relay passes through.
 */
import { TASK_PLATFORM } from '@shared/task-constants'
import { identityOf, type ProviderAdaptor, type TaskAdaptor } from '../types'
import { midjourneyType, midjourneyPlusType } from './capabilities'
import { fetchRequest, readFetch, readRequest, readSubmit, submitRequest } from './wire'

const drawingTasks: TaskAdaptor = { platform: TASK_PLATFORM.midjourney, submitRequest, readSubmit, fetchRequest, readFetch, readRequest }

export const midjourney: ProviderAdaptor = {
	...identityOf(midjourneyType),
	tasks: drawingTasks,
}

export const midjourneyPlus: ProviderAdaptor = {
	...identityOf(midjourneyPlusType),
	tasks: drawingTasks,
}
