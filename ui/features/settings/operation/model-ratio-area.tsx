import { useState } from 'react'
import { useRevalidator, useSearchParams } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@ui/components/ui/tabs'
import { toast } from '@ui/components/ui/toaster'
import { resetModelRatios } from '@ui/features/settings/api'
import { RatioVisualTable, UNPRICED_ONLY_PARAMETER } from '@ui/features/settings/operation/ratio-visual-table'
import { OptionJson, SectionCard } from '@ui/features/settings/option-fields'
import { jsonRule, useOptionForm } from '@ui/features/settings/options-form'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

const KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio', 'CacheRatio', 'CreateCacheRatio', 'AudioRatio', 'AudioCompletionRatio', 'ModelPriceTiers'] as const
const RULES = Object.fromEntries(KEYS.map((key) => [key, jsonRule()]))
const JSON_FIELDS: { key: (typeof KEYS)[number]; label: string; hint: string }[] = [
	{ key: 'ModelPrice', label: '模型固定价格', hint: '美元/次；设置后按次计费，优先于倍率' },
	{ key: 'ModelRatio', label: '模型倍率', hint: '倍率 1 即每百万输入 tokens 2 美元' },
	{ key: 'CompletionRatio', label: '补全倍率', hint: '输出 tokens 相对输入的倍率' },
	{ key: 'CacheRatio', label: '缓存读取倍率', hint: '命中缓存的输入 tokens 相对输入的倍率' },
	{ key: 'CreateCacheRatio', label: '缓存写入倍率', hint: '写入缓存的输入 tokens 相对输入的倍率' },
	{ key: 'AudioRatio', label: '音频输入倍率', hint: '音频输入 tokens 相对文本输入的倍率' },
	{ key: 'AudioCompletionRatio', label: '音频输出倍率', hint: '音频输出 tokens 相对音频输入的倍率' },
	{ key: 'ModelPriceTiers', label: '分段价格', hint: '可选，按模型：tiers 为输入超过 above_prompt_tokens 时改用的倍率（从小到大），create_cache_1h_ratio 为 1 小时缓存写入的倍率，minimum_quota 为每次调用的最低收费；只能填数字，保存时检查' },
]

/** Model prices: the JSON options as text, or the visual table; both edit the same form. */
export function ModelRatioArea() {
	const { t } = useTranslation()
	const form = useOptionForm(KEYS, RULES)
	const revalidator = useRevalidator()
	const [searchParameters] = useSearchParams()
	// The channel editor's link to the models without a price opens the visual view.
	const [view, setView] = useState(searchParameters.get(UNPRICED_ONLY_PARAMETER) === 'true' ? 'visual' : 'json')
	const [confirmingReset, setConfirmingReset] = useState(false)

	async function reset() {
		const envelope = await callApi(t, resetModelRatios(browserApi))
		if (!envelope) return
		toast.success(envelope.message ? t(envelope.message) : t('操作成功'))
		revalidator.revalidate()
	}

	return (
		<SectionCard id="model-ratio" title="倍率设置">
			<Tabs value={view} onValueChange={setView}>
				<TabsList>
					<TabsTrigger value="json">{t('JSON 视图')}</TabsTrigger>
					<TabsTrigger value="visual">{t('可视化编辑')}</TabsTrigger>
				</TabsList>
				<TabsContent value="json" className="flex flex-col gap-4 pt-4">
					{JSON_FIELDS.map((field) => (
						<OptionJson key={field.key} form={form} name={field.key} label={field.label} hint={field.hint} rows={8} />
					))}
					<div className="flex flex-wrap gap-2">
						<Button type="button" disabled={form.saving} onClick={() => void form.save()}>
							{t('保存倍率设置')}
						</Button>
						<Button type="button" variant="destructive" onClick={() => setConfirmingReset(true)}>
							{t('重置模型倍率')}
						</Button>
					</div>
				</TabsContent>
				<TabsContent value="visual" className="pt-4">
					<RatioVisualTable key={form.revision} form={form} />
				</TabsContent>
			</Tabs>
			<ConfirmDialog
				open={confirmingReset}
				onOpenChange={setConfirmingReset}
				title={t('确定重置模型倍率吗？')}
				description={t('模型倍率将恢复为默认值，此操作不可撤销。')}
				destructive
				onConfirm={() => void reset()}
			/>
		</SectionCard>
	)
}
