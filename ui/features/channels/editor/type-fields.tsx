/** Fields that only some channel types have (docs/specification/channels.md#the-editor), and the base URL under its per-type name. */
import { ExternalLinkIcon } from 'lucide-react'
import { CHANNEL_TYPE, DEFAULT_AZURE_API_VERSION, DEFAULT_VERTEX_REGION, DEFAULT_XUNFEI_VERSION, type ChannelType } from '@shared/channel-type'
import { Input } from '@ui/components/ui/input'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'
import { Field } from './field'
import type { ChannelForm } from './form'
import type { FormProblemState } from '@ui/lib/use-form-problem'
import { BASE_URL_FIELDS, SILICONCLOUD_SIGN_UP_URL, VERTEX_REGION_MAP_TEMPLATE } from './presets'

type TypeFieldsProps = {
	form: ChannelForm
	update: (changes: Partial<ChannelForm>) => void
}

type TypeFieldsWithProblems = TypeFieldsProps & { problems: FormProblemState }

export function BaseUrlField({ form, update, problems }: TypeFieldsWithProblems) {
	const { t } = useTranslation()
	const special = BASE_URL_FIELDS[form.type as ChannelType]
	return (
		<Field
			id="channel-base-url"
			label={special ? t(special.label) : t('代理地址')}
			hint={special ? undefined : t('可选，用于通过代理站来转发请求，末尾的 / 会被去掉')}
			error={problems.errorOf('baseUrl')}
		>
			<Input
				id="channel-base-url"
				value={form.baseUrl}
				placeholder={special ? t(special.placeholder) : t('例如：https://api.example.com')}
				onChange={(event) => update({ baseUrl: event.target.value })}
				{...problems.control('baseUrl', 'channel-base-url')}
			/>
		</Field>
	)
}

/** `other` and the organization, by type. */
export function TypeFields({ form, update, problems }: TypeFieldsWithProblems) {
	const { t } = useTranslation()
	const otherInput = (label: string, placeholder: string, hint?: string) => (
		<Field id="channel-other" label={label} hint={hint}>
			<Input id="channel-other" value={form.other} placeholder={placeholder} onChange={(event) => update({ other: event.target.value })} />
		</Field>
	)
	switch (form.type) {
		case CHANNEL_TYPE.openai:
			return (
				<Field id="channel-organization" label={t('组织')} hint={t('可选，OpenAI 的组织 ID，请求时放入 OpenAI-Organization 头')}>
					<Input id="channel-organization" value={form.organization} placeholder={t('例如：org-xxx')} onChange={(event) => update({ organization: event.target.value })} />
				</Field>
			)
		case CHANNEL_TYPE.azure:
			return otherInput(t('默认 API 版本'), t('例如：{example}', { example: DEFAULT_AZURE_API_VERSION }), t('留空则保存为 {version}', { version: DEFAULT_AZURE_API_VERSION }))
		case CHANNEL_TYPE.xunfei:
			return otherInput(t('模型版本'), t('例如：{example}', { example: DEFAULT_XUNFEI_VERSION }), t('留空则保存为 {version}', { version: DEFAULT_XUNFEI_VERSION }))
		case CHANNEL_TYPE.aiProxyLibrary:
			return otherInput(t('知识库 ID'), t('请输入知识库 ID，例如：123456'))
		case CHANNEL_TYPE.cloudflare:
			return otherInput('Account ID', t('请输入 Account ID，例如：d6b5da8hk1awo8nap34ube6gh'))
		case CHANNEL_TYPE.vertex:
			return (
				<Field id="channel-other" label={t('部署地区')} error={problems.errorOf('other')} hint={t('填写一个地区，或一个从模型到地区的 JSON（default 用于其余模型）；留空则保存为 {region}', { region: DEFAULT_VERTEX_REGION })}>
					<Textarea id="channel-other" value={form.other} rows={2} spellCheck={false} className="font-mono text-xs" placeholder={`${DEFAULT_VERTEX_REGION}\n${t('或')}\n${VERTEX_REGION_MAP_TEMPLATE}`} onChange={(event) => update({ other: event.target.value })} {...problems.control('other', 'channel-other')} />
				</Field>
			)
		case CHANNEL_TYPE.siliconflow:
			return (
				<p className="text-sm text-muted-foreground">
					{t('还没有 SiliconCloud 账号？')}{' '}
					<a href={SILICONCLOUD_SIGN_UP_URL} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-medium text-primary hover:underline">
						{t('点此注册')}
						<ExternalLinkIcon className="size-3" />
					</a>
				</p>
			)
		default:
			return null
	}
}
