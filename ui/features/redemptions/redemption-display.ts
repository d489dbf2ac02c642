/** How redemption codes read in the table and leave the page: state tags and the key file. */
import { REDEMPTION_STATUS } from '@shared/redemption-constants'
import type { BadgeVariant } from '@ui/components/ui/badge'

/** zh source strings and tag colours of the three states (seed 002 §4). */
export const redemptionStatusTags: Record<number, { label: string; variant: BadgeVariant }> = {
	[REDEMPTION_STATUS.unused]: { label: '未使用', variant: 'green' },
	[REDEMPTION_STATUS.disabled]: { label: '已禁用', variant: 'red' },
	[REDEMPTION_STATUS.used]: { label: '已使用', variant: 'grey' },
}

export const unknownStatusTag = { label: '未知状态', variant: 'grey' } as const satisfies { label: string; variant: BadgeVariant }

/** One key per line, as the download and "copy selected" give them. */
export const keyLines = (keys: string[]) => `${keys.join('\n')}\n`

/** The download offered after creation (seed 002 §2): `<name>.txt`. */
export const keyFileName = (name: string) => `${name}.txt`

/** Saves `text` as a file through a temporary link; the browser names it `fileName`. */
export function downloadText(fileName: string, text: string) {
	const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }))
	const link = document.createElement('a')
	link.href = url
	link.download = fileName
	document.body.append(link)
	link.click()
	link.remove()
	// Revoked after the click has been handled, or the download could find the URL gone.
	setTimeout(() => URL.revokeObjectURL(url), 0)
}
