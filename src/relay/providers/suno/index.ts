/**
 * Suno (type 36): music and lyrics tasks on a Suno API deployment (NOTES.md). The channel's base
 * URL names the deployment; its key is sent as a bearer token.
 */
import { TASK_PLATFORM } from '@shared/task-constants'
import { identityOf, type ProviderAdaptor } from '../types'
import { sunoType } from './capabilities'
import { fetchRequest, readFetch, readSubmit, submitRequest } from './wire'

export const suno: ProviderAdaptor = {
	...identityOf(sunoType),
	tasks: { platform: TASK_PLATFORM.suno, submitRequest, readSubmit, fetchRequest, readFetch },
}
