import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { tagChannels } from '@ui/features/channels/api'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'

const tagRequiredMessage = '标签不能为空'

type BatchTagDialogProps = { ids: number[]; open: boolean; onOpenChange: (open: boolean) => void; onDone: () => void }

/** Sets one tag on the selected channels. */
export function BatchTagDialog({ ids, open, onOpenChange, onDone }: BatchTagDialogProps) {
	const { t } = useTranslation()
	const run = useChannelAction()
	const [saving, setSaving] = useState(false)

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const tag = String(new FormData(event.currentTarget).get('tag') ?? '').trim()
		if (!tag) {
			toast.error(t(tagRequiredMessage))
			return
		}
		setSaving(true)
		const saved = await run(tagChannels(browserApi, ids, tag), (count) => t('已为 {count} 个渠道设置标签', { count: Number(count) }))
		setSaving(false)
		if (!saved) return
		onOpenChange(false)
		onDone()
	}

	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('批量设置标签')}</DialogTitle>
					<DialogDescription>{t('为所选的 {count} 个渠道设置标签', { count: ids.length })}</DialogDescription>
				</DialogHeader>
				<form className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate>
					<div className="flex flex-col gap-2">
						<Label htmlFor="batch-tag">{t('标签')}</Label>
						<Input id="batch-tag" name="tag" placeholder={t('请输入标签')} />
					</div>
					<DialogFooter>
						<Button type="button" variant="outline" onClick={() => onOpenChange(false)}>{t('取消')}</Button>
						<Button type="submit" disabled={saving}>{t('确定')}</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
