/** The model list with its helpers (docs/specification/channels.md#the-editor): fill related, fill all, fetch, clear, add custom names. */
import { useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { fetchModelsOfChannel, fetchModelsOfNewChannel } from './api'
import { Field } from './field'
import { baseUrlOnSave, customModelNames, modelNames, type ChannelForm } from './form'
import { MultiSelect } from './multi-select'

const modelMessages = {
	keyRequired: '请填写密钥',
	fetchFailed: '获取模型列表失败',
	fetched: '已获取 {count} 个模型',
	someExist: '部分模型已存在',
	added: '已添加 {count} 个模型',
} as const

type ModelsFieldProps = {
	form: ChannelForm
	/** Set when editing a saved channel: with the key left empty, the server fetches with the stored key and base URL. */
	channelId?: number
	/** This type's models (the related ones) and every known model (union of all sources). */
	relatedModels: string[]
	allModels: string[]
	/** Translated, when the form's check found the list empty. */
	error?: string
	onChange: (models: string[]) => void
}

const union = (...lists: readonly string[][]) => [...new Set(lists.flat())]

export function ModelsField({ form, channelId, relatedModels, allModels, error, onChange }: ModelsFieldProps) {
	const { t } = useTranslation()
	const [custom, setCustom] = useState('')
	const [fetching, setFetching] = useState(false)

	async function fetchModels() {
		if (channelId === undefined && !form.key.trim()) {
			toast.error(t(modelMessages.keyRequired))
			return
		}
		setFetching(true)
		// A typed key is fetched with the form's type and base URL (how a changed destination is tried); none, with the stored ones.
		const call = channelId === undefined || form.key.trim()
			? fetchModelsOfNewChannel(browserApi, { base_url: baseUrlOnSave(form.baseUrl), type: form.type, key: form.key.trim() })
			: fetchModelsOfChannel(browserApi, channelId)
		const envelope = await callApi(t, call)
		setFetching(false)
		if (!envelope) return
		const fetched = modelNames(envelope.data)
		if (!fetched) {
			toast.error(t(modelMessages.fetchFailed))
			return
		}
		onChange(union(form.models, fetched))
		toast.success(t(modelMessages.fetched, { count: fetched.length }))
	}

	function addCustom() {
		const { added, duplicates } = customModelNames(custom, form.models)
		if (duplicates) toast.info(t(modelMessages.someExist))
		if (added.length === 0) return
		onChange([...form.models, ...added])
		setCustom('')
		toast.success(t(modelMessages.added, { count: added.length }))
	}

	return (
		<Field id="channel-models" label={t('模型')} required hint={t('渠道支持的模型；请求的模型不在其中时不会选中此渠道')} error={error}>
			<MultiSelect id="channel-models" label={t('模型')} values={form.models} options={allModels} invalid={Boolean(error)} placeholder={t('请选择该渠道所支持的模型')} onChange={onChange} />
			<div className="flex flex-wrap gap-2">
				<Button type="button" variant="outline" size="sm" onClick={() => onChange(union(form.models, relatedModels))}>{t('填入相关模型')}</Button>
				<Button type="button" variant="outline" size="sm" onClick={() => onChange(union(form.models, allModels))}>{t('填入所有模型')}</Button>
				<Button type="button" variant="outline" size="sm" disabled={fetching} onClick={fetchModels}>{fetching ? t('获取中…') : t('获取模型列表')}</Button>
				<Button type="button" variant="outline" size="sm" onClick={() => onChange([])}>{t('清除所有模型')}</Button>
			</div>
			<div className="flex gap-2">
				<Input
					aria-label={t('自定义模型名称')}
					placeholder={t('输入自定义模型名称，多个用英文逗号分隔')}
					value={custom}
					onChange={(event) => setCustom(event.target.value)}
					onKeyDown={(event) => {
						if (event.key !== 'Enter') return
						event.preventDefault()
						addCustom()
					}}
				/>
				<Button type="button" variant="secondary" onClick={addCustom}>{t('填入')}</Button>
			</div>
		</Field>
	)
}
