/** How tokens read in the table: status tags, masked keys and group ratio colours. */
import { TOKEN_STATUS, TOKEN_KEY_PREFIX } from '@shared/token-constants'
import type { BadgeVariant } from '@ui/components/ui/badge'

/** zh source strings and tag colours of the four token states (docs/specification/tokens-and-money.md#api-tokens). */
export const tokenStatusTags: Record<number, { label: string; variant: BadgeVariant }> = {
	[TOKEN_STATUS.enabled]: { label: '已启用', variant: 'green' },
	[TOKEN_STATUS.disabled]: { label: '已禁用', variant: 'red' },
	[TOKEN_STATUS.expired]: { label: '已过期', variant: 'yellow' },
	[TOKEN_STATUS.exhausted]: { label: '已耗尽', variant: 'grey' },
}

export const unknownStatusTag = { label: '未知状态', variant: 'grey' } as const satisfies { label: string; variant: BadgeVariant }

const visibleKeyEnds = 4
const hiddenKeyMark = '*'.repeat(10)

/** `sk-abcd**********wxyz`: the start and end of a key, enough to tell tokens apart. */
export function maskKey(key: string): string {
	const secret = key.startsWith(TOKEN_KEY_PREFIX) ? key.slice(TOKEN_KEY_PREFIX.length) : key
	if (secret.length <= visibleKeyEnds * 2) return key
	return `${TOKEN_KEY_PREFIX}${secret.slice(0, visibleKeyEnds)}${hiddenKeyMark}${secret.slice(-visibleKeyEnds)}`
}

