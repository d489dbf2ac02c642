import { EyeIcon, EyeOffIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'
import { maskKey } from '@ui/features/tokens/token-display'

/** The key under the token's name: masked until the viewer asks to see it whole. */
export function TokenKey({ tokenKey }: { tokenKey: string }) {
	const { t } = useTranslation()
	const [shown, setShown] = useState(false)
	const label = t(shown ? '隐藏密钥' : '查看密钥')
	return (
		<div className="flex items-center gap-1">
			{/* Shown or masked, the key's box has one width (a shown key scrolls inside it): the row does not move. */}
			<code data-testid="token-key" className="w-44 overflow-x-auto whitespace-nowrap rounded bg-muted px-1.5 py-0.5 font-mono text-xs [scrollbar-width:none] max-[600px]:w-auto max-[600px]:break-all max-[600px]:whitespace-normal">
				{shown ? tokenKey : maskKey(tokenKey)}
			</code>
			<Button variant="ghost" size="icon" className="size-6" aria-label={label} title={label} aria-pressed={shown} onClick={() => setShown(!shown)}>
				{shown ? <EyeOffIcon /> : <EyeIcon />}
			</Button>
		</div>
	)
}
