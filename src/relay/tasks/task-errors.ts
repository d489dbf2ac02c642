/** The task relay's own refusals; each client shape (answers.ts) renders them. */
import { RelayError } from '../errors'

export const taskErrors = {
	drawingDisabled: () => new RelayError(403, 'drawing is turned off on this gateway', 'invalid_request_error', 'drawing_disabled'),
	tasksDisabled: () => new RelayError(403, 'async tasks are turned off on this gateway', 'invalid_request_error', 'task_disabled'),
	/** Also what another user's task looks like: a caller learns nothing of tasks that are not theirs. */
	notFound: () => new RelayError(404, 'task not found', 'invalid_request_error', 'task_not_found'),
	notFinished: () => new RelayError(400, 'the task has not succeeded yet: act on it once its status is SUCCESS', 'invalid_request_error', 'task_status_not_success'),
	channelUnavailable: () => new RelayError(503, 'the channel that ran the task is disabled or gone', 'server_error', 'channel_disabled'),
	perCallOnly: (model: string) => new RelayError(400, `the model ${model} is billed per call: ask the administrator to set its price`, 'invalid_request_error', 'model_price_unset'),
	refused: (status: number, description: string) => new RelayError(status, description, 'upstream_error', 'upstream_refused'),
	unanswered: () => new RelayError(502, 'the upstream service did not answer', 'upstream_error', 'bad_gateway'),
	notifyHook: (reason: string) => new RelayError(400, `notifyHook cannot be used: ${reason}`, 'invalid_request_error', 'invalid_notify_hook'),
}
