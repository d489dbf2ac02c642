import { CopyIcon, DownloadIcon } from 'lucide-react'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'
import { downloadText, keyFileName, keyLines } from '@ui/features/redemptions/redemption-display'
import type { CreatedCodes } from '@ui/features/redemptions/components/redemption-drawer'

/** After creation (docs/specification/tokens-and-money.md#redemption-codes): the new keys, offered as `<name>.txt` and for copying. */
export function CreatedCodesDialog({ created, onClose }: { created: CreatedCodes | null; onClose: () => void }) {
	const { t } = useTranslation()
	const text = created ? keyLines(created.keys) : ''
	return (
		<Dialog open={created !== null} onOpenChange={(open) => !open && onClose()}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('已生成 {count} 个兑换码', { count: created?.keys.length ?? 0 })}</DialogTitle>
					<DialogDescription>{t('兑换码可直接兑换额度，请妥善保存')}</DialogDescription>
				</DialogHeader>
				<Textarea readOnly aria-label={t('兑换码')} rows={Math.min(8, created?.keys.length ?? 1)} value={text} className="font-mono text-xs" />
				<DialogFooter>
					<Button variant="outline" onClick={() => copyText(text, t)}>
						<CopyIcon />
						{t('复制')}
					</Button>
					<Button onClick={() => created && downloadText(keyFileName(created.name), text)}>
						<DownloadIcon />
						{t('下载 {file}', { file: created ? keyFileName(created.name) : '' })}
					</Button>
				</DialogFooter>
			</DialogContent>
		</Dialog>
	)
}
