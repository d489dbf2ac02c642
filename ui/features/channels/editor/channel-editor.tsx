/**
 * The channel editor page (docs/specification/channels.md#the-editor): create mode without a channel, edit mode with one. Its fields
 * come in three sections (basics; models and routing; advanced), and its save button stays at the
 * bottom of the window however far the form scrolls.
 */
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { BASE_URL_REACH, CHANNEL_MODE, CHANNEL_NAME_MAX_LENGTH, CHANNEL_TAG_MAX_LENGTH, CREATE_MODE } from '@shared/channel-constants'
import type { ChannelDetail, ChannelTypeInfo } from '@shared/channel'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '@ui/components/ui/card'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Switch } from '@ui/components/ui/switch'
import { toast } from '@ui/components/ui/toaster'
import { useFormProblem } from '@ui/lib/use-form-problem'
import { findChannelType } from '@ui/features/channels/channel-types'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { isRoot, useCurrentUser } from '@ui/lib/session'
import { useHydrated } from '@ui/lib/use-hydrated'
import { cacheModelsByType, checkChannel, createChannel, readCachedModelsByType, updateChannel, type ModelsByType } from './api'
import { Field, JsonField } from './field'
import { createPayload, findProblem, formFromChannel, keyNeeded, newChannelForm, updatePayload, type ChannelForm } from './form'
import { KeyField, MultiKeyModeField } from './key-field'
import { KeysPanel } from './keys-panel'
import { ModelsField } from './models-field'
import { MultiSelect } from './multi-select'
import { MODEL_COST_TEMPLATE, MODEL_MAPPING_TEMPLATE, SETTING_TEMPLATE, STATUS_CODE_MAPPING_TEMPLATE } from './presets'
import type { BaseUrlProblem } from './private-upstream-dialog'
import { BaseUrlField, TypeFields } from './type-fields'
import { TypeSelect } from './type-select'
import { UnpricedModels } from './unpriced-models'

/** The warning's code loads when a base URL first needs it. */
const PrivateUpstreamDialog = lazy(() => import('./private-upstream-dialog').then((module) => ({ default: module.PrivateUpstreamDialog })))

export const channelListPath = '/channel'

type ChannelEditorProps = {
	/** null in create mode; a multi-key channel comes with its keys. */
	channel: ChannelDetail | null
	groups: string[]
	/** Every model configured on some channel. */
	configuredModels: string[]
	/** The server's channel types, in the type select's order. */
	channelTypes: ChannelTypeInfo[]
	/** The loader's `GET /api/models` answer; null when it failed. */
	loadedModelsByType: ModelsByType | null
}

/** A type's presets are its list in `GET /api/models` (Midjourney's actions and Suno's two among them) (docs/specification/channels.md#fields). */
function modelsOfType(type: number, modelsByType: ModelsByType): string[] {
	return [...(modelsByType[String(type)] ?? [])]
}

export function ChannelEditor({ channel, groups, configuredModels, channelTypes, loadedModelsByType }: ChannelEditorProps) {
	const { t } = useTranslation()
	const navigate = useNavigate()
	const hydrated = useHydrated()
	const superAdmin = isRoot(useCurrentUser())
	const creating = channel === null
	/** Edit mode of a multi-key channel: its keys have a panel of their own instead of the key field. */
	const keyPool = channel?.mode === CHANNEL_MODE.multiKey
	const [form, setForm] = useState<ChannelForm>(() => (channel ? formFromChannel(channel) : newChannelForm))
	const needsKey = keyNeeded(form, channel, superAdmin)
	const [modelsByType, setModelsByType] = useState<ModelsByType>(loadedModelsByType ?? {})
	const [saving, setSaving] = useState(false)
	const problems = useFormProblem()

	// localStorage only after hydration: the server has none, and both renders must match.
	useEffect(() => {
		if (loadedModelsByType) cacheModelsByType(loadedModelsByType)
		else setModelsByType(readCachedModelsByType())
	}, [loadedModelsByType])

	const update = (changes: Partial<ChannelForm>) => setForm((current) => ({ ...current, ...changes }))
	const allModels = [...new Set([...configuredModels, ...Object.values(modelsByType).flat()])].sort()

	function changeType(type: number) {
		setForm((current) => ({ ...current, type, models: current.models.length ? current.models : modelsOfType(type, modelsByType) }))
	}

	const [baseUrlProblem, setBaseUrlProblem] = useState<BaseUrlProblem | null>(null)

	/** A base URL Ferry would not reach (a private network the settings refuse, say) is told before saving. */
	async function baseUrlWarning(): Promise<BaseUrlProblem | null> {
		const envelope = await checkChannel(browserApi, { type: form.type, base_url: form.baseUrl, models: [] }).catch(() => undefined)
		const reach = envelope?.success ? envelope.data.base_url : undefined
		return reach && (reach.reach === BASE_URL_REACH.privateBlocked || reach.reach === BASE_URL_REACH.refused) ? reach : null
	}

	async function save(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (problems.report(findProblem(form, creating, needsKey))) return
		setSaving(true)
		const warning = await baseUrlWarning()
		if (warning) {
			setSaving(false)
			setBaseUrlProblem(warning)
			return
		}
		await submit()
	}

	async function submit() {
		setBaseUrlProblem(null)
		setSaving(true)
		if (creating) {
			const envelope = await callApi(t, createChannel(browserApi, createPayload(form)))
			setSaving(false)
			if (!envelope) return
			toast.success(t('已创建 {count} 个渠道', { count: envelope.data.length }))
			// The server says how many repeated keys it left out, in the page's language.
			if (envelope.message) toast.info(t(envelope.message))
			// A new key pool opens on its keys, shown now as the server keeps them: by hint only.
			const [created] = envelope.data
			if (form.mode === CREATE_MODE.multiKey && created) {
				navigate(`/channel/edit/${created.id}`)
				return
			}
		} else {
			const envelope = await callApi(t, updateChannel(browserApi, updatePayload(form, channel.id)), '渠道已更新')
			setSaving(false)
			if (!envelope) return
		}
		navigate(channelListPath)
	}

	const warningOpened = baseUrlProblem !== null

	return (
		<form noValidate onSubmit={save} className="mx-auto flex w-full max-w-3xl flex-col gap-4">
			<div className="flex flex-wrap items-baseline justify-between gap-2">
				<h1 className="text-xl font-semibold">{creating ? t('添加渠道') : t('编辑渠道')}</h1>
				{channel && <p className="text-sm text-muted-foreground">#{channel.id} {channel.name}</p>}
			</div>
			<Section id="channel-basics" title="基本信息" description="渠道的类型、名称、地址和密钥">
				<Field id="channel-type" label={t('类型')} required>
					<TypeSelect id="channel-type" types={channelTypes} value={form.type} onChange={changeType} />
				</Field>
				<Field id="channel-name" label={t('名称')} required error={problems.errorOf('name')}>
					<Input id="channel-name" value={form.name} maxLength={CHANNEL_NAME_MAX_LENGTH} placeholder={t('请为渠道命名')} onChange={(event) => update({ name: event.target.value })} {...problems.control('name', 'channel-name')} />
				</Field>
				<BaseUrlField form={form} update={update} problems={problems} />
				{keyPool
					? <MultiKeyModeField value={form.multiKeyMode} onChange={(multiKeyMode) => update({ multiKeyMode })} />
					: <KeyField form={form} keyFormat={findChannelType(channelTypes, form.type)?.key_format ?? ''} creating={creating} needsKey={needsKey} update={update} problems={problems} />}
				<TypeFields form={form} update={update} problems={problems} />
			</Section>
			{keyPool && (
				<Section id="channel-keys-section" title="密钥池" description="每个密钥单独记录状态、测试、启用和禁用；密钥本身不会再显示，只显示末尾几位">
					<KeysPanel channelId={channel.id} channelType={channel.type} initialKeys={channel.keys} />
				</Section>
			)}
			<Section id="channel-routing" title="模型与路由" description="谁能用这个渠道、用哪些模型，以及它在同类渠道中的先后">
				<Field id="channel-groups" label={t('分组')} required hint={t('可以使用该渠道的用户分组')} error={problems.errorOf('groups')}>
					<MultiSelect id="channel-groups" label={t('分组')} values={form.groups} options={groups} invalid={Boolean(problems.errorOf('groups'))} placeholder={t('请选择可以使用该渠道的分组')} onChange={(selected) => update({ groups: selected })} />
				</Field>
				<ModelsField
					form={form}
					channelId={channel?.id}
					relatedModels={modelsOfType(form.type, modelsByType)}
					allModels={allModels}
					error={problems.errorOf('models')}
					onChange={(models) => update({ models })}
				/>
				<UnpricedModels type={form.type} models={form.models} />
				<JsonField id="channel-model-mapping" name="modelMapping" problems={problems} label={t('模型重定向')} hint={t('可选，把请求里的模型名换成上游的模型名，键为请求的模型名，值为要替换成的模型名')} value={form.modelMapping} template={MODEL_MAPPING_TEMPLATE} onChange={(modelMapping) => update({ modelMapping })} />
				<div className="grid gap-5 sm:grid-cols-3">
					<Field id="channel-tag" label={t('标签')}>
						<Input id="channel-tag" value={form.tag} maxLength={CHANNEL_TAG_MAX_LENGTH} placeholder={t('可选，用于聚合管理渠道')} onChange={(event) => update({ tag: event.target.value })} />
					</Field>
					<Field id="channel-priority" label={t('优先级')} error={problems.errorOf('priority')}>
						<Input id="channel-priority" type="number" inputMode="numeric" step={1} value={form.priority} onChange={(event) => update({ priority: event.target.value })} {...problems.control('priority', 'channel-priority')} />
					</Field>
					<Field id="channel-weight" label={t('权重')} error={problems.errorOf('weight')}>
						<Input id="channel-weight" type="number" inputMode="numeric" step={1} min={0} value={form.weight} onChange={(event) => update({ weight: event.target.value })} {...problems.control('weight', 'channel-weight')} />
					</Field>
				</div>
			</Section>
			<Section id="channel-cost" title="成本" description="运营者为这个渠道的调用付出的成本，记在每条日志的收费旁，用于毛利报表；不影响任何余额">
				<Field id="channel-cost-ratio" label={t('成本倍率')} hint={t('按模型的标价（不含分组倍率）计算的倍数，例如 0.5 表示成本为标价的一半；留空表示未知')} error={problems.errorOf('costRatio')}>
					<Input id="channel-cost-ratio" inputMode="decimal" value={form.costRatio} placeholder={t('未知')} onChange={(event) => update({ costRatio: event.target.value })} {...problems.control('costRatio', 'channel-cost-ratio')} />
				</Field>
				<JsonField id="channel-model-cost" name="modelCost" problems={problems} label={t('模型成本价')} hint={t('可选，按模型填写上游的成本价（美元）：每百万 input、output、cache_read、cache_write token，或每次调用 per_call；填写的模型优先于成本倍率')} value={form.modelCost} template={MODEL_COST_TEMPLATE} onChange={(modelCost) => update({ modelCost })} />
			</Section>
			<Section id="channel-advanced" title="高级设置" description="可选：额外设置、最大输入 token 数、测试模型、自动禁用、定时测试和状态码复写">
				<JsonField id="channel-setting" name="setting" problems={problems} label={t('额外设置')} hint={t('可选，JSON 格式的渠道额外设置：system_prompt 系统提示词（请求没有系统消息时加在最前）；system_prompt_override 请求已有系统消息时也把它加在该消息前；force_format 只发送 OpenAI 文档中的请求字段；thinking_to_content 把推理内容写成回答中的 <think>…</think> 文本；pass_through_body_enabled 原样转发客户端的请求体（不做模型重定向，以上设置不生效）；first_token_timeout_seconds 流式回答在响应头之后这么多秒内没有任何内容时放弃这次尝试，改用其他密钥或渠道（0 表示不限，不填则用服务器的 UPSTREAM_FIRST_TOKEN_TIMEOUT_SECONDS）。不支持 proxy')} value={form.setting} template={SETTING_TEMPLATE} onChange={(setting) => update({ setting })} />
				<Field id="channel-max-input-tokens" label={t('最大输入 token 数')} hint={t('提示词超过这个 token 数的请求不会发往这个渠道，改走同模型的其他渠道；都不能接受时请求被拒绝（400）。0 或留空表示不限')} error={problems.errorOf('maxInputTokens')}>
					<Input id="channel-max-input-tokens" inputMode="numeric" value={form.maxInputTokens} placeholder={t('不限')} onChange={(event) => update({ maxInputTokens: event.target.value })} {...problems.control('maxInputTokens', 'channel-max-input-tokens')} />
				</Field>
				<Field id="channel-test-model" label={t('默认测试模型')} hint={t('测试渠道时默认使用的模型')}>
					<Input id="channel-test-model" value={form.testModel} placeholder={t('例如：gpt-4o-mini')} onChange={(event) => update({ testModel: event.target.value })} />
				</Field>
				<div className="flex flex-col gap-2">
					<div className="flex items-center gap-2">
						<Switch id="channel-auto-ban" checked={form.autoBan} onCheckedChange={(autoBan) => update({ autoBan })} />
						<Label htmlFor="channel-auto-ban">{t('自动禁用')}</Label>
					</div>
					<p className="text-xs text-muted-foreground">{t('开启后，渠道请求失败时可按系统设置被自动禁用')}</p>
				</div>
				<div className="flex flex-col gap-2">
					<div className="flex items-center gap-2">
						<Switch id="channel-scheduled-test" checked={form.scheduledTest} onCheckedChange={(scheduledTest) => update({ scheduledTest })} />
						<Label htmlFor="channel-scheduled-test">{t('参与定时测试')}</Label>
					</div>
					<p className="text-xs text-muted-foreground">{t('关闭后，定时测试跳过这个渠道（测试要消耗上游额度时可以关闭）；手动测试和测试所有渠道不受影响')}</p>
				</div>
				<JsonField id="channel-status-code-mapping" name="statusCodeMapping" problems={problems} label={t('状态码复写')} hint={t('可选，把上游返回的状态码改写为另一个状态码，例如把 400 改写为 500')} value={form.statusCodeMapping} template={STATUS_CODE_MAPPING_TEMPLATE} onChange={(statusCodeMapping) => update({ statusCodeMapping })} />
			</Section>
			{/* Sticks to the bottom of the window while the form is longer than it. */}
			<div data-testid="editor-actions" className="sticky bottom-0 z-20 -mx-2 flex justify-end gap-2 border-t bg-background/95 px-2 py-3 backdrop-blur supports-[backdrop-filter]:bg-background/80">
				<Button asChild variant="outline">
					<Link to={channelListPath}>{t('取消')}</Link>
				</Button>
				<Button type="submit" disabled={!hydrated || saving}>{saving ? t('保存中…') : t('保存')}</Button>
			</div>
			{warningOpened && (
				<Suspense fallback={null}>
					<PrivateUpstreamDialog problem={baseUrlProblem} onClose={() => setBaseUrlProblem(null)} onSave={() => void submit()} />
				</Suspense>
			)}
		</form>
	)
}

/** A titled card of the editor's fields; `title` and `description` are zh source strings. */
function Section({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
	const { t } = useTranslation()
	return (
		<Card aria-labelledby={`${id}-title`} role="region" className="gap-4 py-4 max-[600px]:py-3">
			<CardHeader className="gap-1 max-[600px]:px-3">
				<h2 id={`${id}-title`} className="text-base font-semibold">{t(title)}</h2>
				<CardDescription>{t(description)}</CardDescription>
			</CardHeader>
			<CardContent className="flex flex-col gap-5 max-[600px]:px-3">{children}</CardContent>
		</Card>
	)
}
