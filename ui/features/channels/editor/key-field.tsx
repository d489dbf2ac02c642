import { CHANNEL_TYPE } from '@shared/channel-type'
import { Label } from '@ui/components/ui/label'
import { Switch } from '@ui/components/ui/switch'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'
import { Field } from './field'
import { formMessages, type ChannelForm } from './form'
import type { FormProblemState } from '@ui/lib/use-form-problem'

type KeyFieldProps = {
	form: ChannelForm
	/** How the type's key is composed (`GET /api/channel/types`), '' for one API key. */
	keyFormat: string
	creating: boolean
	/** Edit mode: the key's destination changed and the caller must enter the key again (form.ts keyNeeded). */
	needsKey: boolean
	update: (changes: Partial<ChannelForm>) => void
	problems: FormProblemState
}

/** The key (or keys, one per line, in batch creation). Keys are never shown back: on edit, empty keeps the stored one. */
export function KeyField({ form, keyFormat: format, creating, needsKey, update, problems }: KeyFieldProps) {
	const { t } = useTranslation()
	const vertex = form.type === CHANNEL_TYPE.vertex
	const placeholder = (() => {
		if (needsKey) return t('请重新填写密钥')
		if (!creating) return t('密钥不会显示；留空表示不修改')
		if (form.batch) return t('一行一个密钥，每个密钥创建一个渠道')
		if (vertex) return t('请粘贴服务账号的 JSON 密钥')
		return format ? t('按照如下格式输入：{format}', { format }) : t('请输入渠道对应的鉴权密钥')
	})()
	const hints = [
		needsKey && t(formMessages.keyNeededForNewDestination),
		format && t('按照如下格式输入：{format}', { format }),
		vertex && t('服务账号的 JSON 密钥（批量创建时一行一个，压缩为单行）'),
		form.batch && t('渠道依次命名为 名称、名称-2、名称-3…'),
	].filter((hint): hint is string => Boolean(hint))
	return (
		<Field id="channel-key" label={vertex ? t('密钥文件 (JSON)') : t('密钥')} required={creating || needsKey} error={problems.errorOf('key')} hint={hints.length ? hints.map((hint) => <span key={String(hint)} className="block">{hint}</span>) : undefined}>
			<Textarea
				id="channel-key"
				value={form.key}
				rows={form.batch || vertex ? 5 : 2}
				spellCheck={false}
				autoComplete="off"
				className="font-mono text-xs"
				placeholder={placeholder}
				onChange={(event) => update({ key: event.target.value })}
				{...problems.control('key', 'channel-key')}
			/>
			{creating && (
				<div className="flex items-center gap-2">
					<Switch id="channel-batch" checked={form.batch} onCheckedChange={(batch) => update({ batch })} />
					<Label htmlFor="channel-batch">{t('批量创建')}</Label>
				</div>
			)}
		</Field>
	)
}
