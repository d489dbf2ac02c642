import { CopyIcon } from 'lucide-react'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { useTranslation } from '@ui/i18n'

/** The new token is shown this once; closing the dialog forgets it. */
export function AccessTokenDialog({ token, onClose }: { token: string | null; onClose: () => void }) {
	const { t } = useTranslation()
	return (
		<Dialog open={token !== null} onOpenChange={(open) => !open && onClose()}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('系统访问令牌')}</DialogTitle>
					<DialogDescription>{t('令牌只显示这一次，之前的令牌已失效。请复制后妥善保存。')}</DialogDescription>
				</DialogHeader>
				<Input readOnly data-testid="access-token" aria-label={t('系统访问令牌')} value={token ?? ''} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
				<DialogFooter>
					<Button onClick={() => token && copyText(token, t)}>
						<CopyIcon />
						{t('复制')}
					</Button>
				</DialogFooter>
			</DialogContent>
		</Dialog>
	)
}
