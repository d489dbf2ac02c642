/**
 * The clock of the retention job (src/api/logs/retention.ts): the same tick as the channel health
 * check's, on a thread of its own. Messages in: `{ tickMs }` (0 stops it). Messages out: `'tick'`.
 */
import './channel-health'
