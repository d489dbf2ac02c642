import { useState } from 'react'
import { badgeVariants } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { VISIBLE_MODEL_COUNT } from '@ui/features/settings/constants'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

/** One tag per model; a click copies its name. Past the first few the rest wait behind a toggle. */
export function ModelTags({ models }: { models: string[] | null }) {
	const { t } = useTranslation()
	const [expanded, setExpanded] = useState(false)
	if (models === null) return <p className="text-sm text-destructive">{t('获取模型列表失败')}</p>
	if (models.length === 0) return <p className="text-sm text-muted-foreground">{t('暂无可用模型')}</p>
	const hidden = models.length - VISIBLE_MODEL_COUNT
	const shown = expanded ? models : models.slice(0, VISIBLE_MODEL_COUNT)
	return (
		<div className="flex flex-wrap items-center gap-2" data-testid="model-tags">
			{shown.map((model) => (
				<button
					key={model}
					type="button"
					title={t('点击复制模型名称')}
					className={cn(badgeVariants({ variant: 'outline' }), 'cursor-pointer hover:bg-accent')}
					onClick={() => copyText(model, t)}
				>
					{model}
				</button>
			))}
			{hidden > 0 && (
				<Button variant="link" size="sm" className="h-auto px-1" onClick={() => setExpanded(!expanded)}>
					{expanded ? t('收起') : t('更多 {count} 个模型', { count: hidden })}
				</Button>
			)}
		</div>
	)
}
