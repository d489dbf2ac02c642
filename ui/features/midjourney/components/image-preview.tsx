import { useState } from 'react'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { useTranslation } from '@ui/i18n'

/** A task's image as a thumbnail that opens the whole image in a dialog; a dash when there is none yet. */
export function ImagePreview({ url, prompt }: { url: string; prompt: string }) {
	const { t } = useTranslation()
	const [open, setOpen] = useState(false)
	if (!url) return <span className="text-muted-foreground">-</span>
	return (
		<>
			<button type="button" className="block size-12 overflow-hidden rounded border" aria-label={t('查看图片')} onClick={() => setOpen(true)}>
				<img src={url} alt="" loading="lazy" className="size-full object-cover" data-testid="drawing-thumbnail" />
			</button>
			<Dialog open={open} onOpenChange={setOpen}>
				<DialogContent className="sm:max-w-3xl">
					<DialogHeader>
						<DialogTitle>{t('图片预览')}</DialogTitle>
						<DialogDescription className="line-clamp-2 break-words">{prompt}</DialogDescription>
					</DialogHeader>
					<img src={url} alt={prompt} className="max-h-[70vh] w-full object-contain" data-testid="drawing-image" />
				</DialogContent>
			</Dialog>
		</>
	)
}
