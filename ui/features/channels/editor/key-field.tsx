import { CREATE_MODE, MULTI_KEY_MODE, type MultiKeyMode } from '@shared/channel-constants'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { Label } from '@ui/components/ui/label'
import { RadioGroup, RadioGroupItem } from '@ui/components/ui/radio-group'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'
import { Field } from './field'
import { type CreateMode, formMessages, type ChannelForm } from './form'
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

/** The create modes in the order offered, with their zh labels. */
const CREATE_MODES: readonly { mode: CreateMode; label: string }[] = [
	{ mode: CREATE_MODE.single, label: '单个密钥' },
	{ mode: CREATE_MODE.batch, label: '批量创建' },
	{ mode: CREATE_MODE.multiKey, label: '多密钥渠道' },
]

const isCreateMode = (value: string): value is CreateMode => CREATE_MODES.some((choice) => choice.mode === value)

/**
 * The key, or keys: one channel per line in batch creation, or one channel holding them all (one per
 * line, or a JSON array for Vertex AI). Keys are never shown back: on edit, empty keeps the stored one.
 * A multi-key channel's keys, once saved, are managed in its keys panel instead.
 */
export function KeyField({ form, keyFormat: format, creating, needsKey, update, problems }: KeyFieldProps) {
	const { t } = useTranslation()
	const vertex = form.type === CHANNEL_TYPE.vertex
	const multiKey = form.mode === CREATE_MODE.multiKey
	const batch = form.mode === CREATE_MODE.batch
	const placeholder = (() => {
		if (needsKey) return t('请重新填写密钥')
		if (!creating) return t('密钥不会显示；留空表示不修改')
		if (multiKey) return vertex ? t('粘贴服务账号的 JSON 密钥：多个写成 JSON 数组，或一行一个') : t('一行一个密钥，全部放进这一个渠道')
		if (batch) return t('一行一个密钥，每个密钥创建一个渠道')
		if (vertex) return t('请粘贴服务账号的 JSON 密钥')
		return format ? t('按照如下格式输入：{format}', { format }) : t('请输入渠道对应的鉴权密钥')
	})()
	const hints = [
		needsKey && t(formMessages.keyNeededForNewDestination),
		format && t('按照如下格式输入：{format}', { format }),
		vertex && !multiKey && t('服务账号的 JSON 密钥（批量创建时一行一个，压缩为单行）'),
		batch && t('渠道依次命名为 名称、名称-2、名称-3…'),
		multiKey && t('重复的密钥会被忽略；保存后密钥不再显示，只显示末尾几位'),
	].filter((hint): hint is string => Boolean(hint))
	return (
		<>
			{creating && (
				<div className="flex flex-col gap-2">
					<Label id="channel-create-mode-label">{t('创建方式')}</Label>
					<RadioGroup
						aria-labelledby="channel-create-mode-label"
						value={form.mode}
						onValueChange={(mode) => isCreateMode(mode) && update({ mode })}
						className="flex flex-wrap gap-x-5 gap-y-2"
					>
						{CREATE_MODES.map((choice) => (
							<div key={choice.mode} className="flex items-center gap-2">
								<RadioGroupItem id={`channel-mode-${choice.mode}`} value={choice.mode} />
								<Label htmlFor={`channel-mode-${choice.mode}`} className="font-normal">{t(choice.label)}</Label>
							</div>
						))}
					</RadioGroup>
					<p className="text-xs text-muted-foreground">{t(modeHint(form.mode))}</p>
				</div>
			)}
			<Field id="channel-key" label={vertex ? t('密钥文件 (JSON)') : multiKey ? t('密钥列表') : t('密钥')} required={creating || needsKey} error={problems.errorOf('key')} hint={hints.length ? hints.map((hint) => <span key={String(hint)} className="block">{hint}</span>) : undefined}>
				<Textarea
					id="channel-key"
					value={form.key}
					rows={batch || multiKey || vertex ? 5 : 2}
					spellCheck={false}
					autoComplete="off"
					className="font-mono text-xs"
					placeholder={placeholder}
					onChange={(event) => update({ key: event.target.value })}
					{...problems.control('key', 'channel-key')}
				/>
			</Field>
			{multiKey && <MultiKeyModeField value={form.multiKeyMode} onChange={(multiKeyMode) => update({ multiKeyMode })} />}
		</>
	)
}

function modeHint(mode: CreateMode): string {
	if (mode === CREATE_MODE.batch) return '每个密钥创建一个渠道，各自测试和禁用'
	if (mode === CREATE_MODE.multiKey) return '一个渠道持有所有密钥：每个密钥单独记录状态，可单独测试和禁用'
	return '一个渠道使用一个密钥'
}

const MULTI_KEY_MODES: readonly { mode: MultiKeyMode; label: string }[] = [
	{ mode: MULTI_KEY_MODE.random, label: '随机' },
	{ mode: MULTI_KEY_MODE.polling, label: '依次轮流' },
]

/** How a multi-key channel picks one of its enabled keys. */
export function MultiKeyModeField({ value, onChange }: { value: MultiKeyMode; onChange: (mode: MultiKeyMode) => void }) {
	const { t } = useTranslation()
	return (
		<Field id="channel-multi-key-mode" label={t('密钥选择方式')} hint={t('随机：每次调用随机选一个启用的密钥；依次轮流：依次使用每个启用的密钥。开启会话亲和时，同一会话的调用留在同一个密钥上')}>
			<Select value={value} onValueChange={(mode) => MULTI_KEY_MODES.some((choice) => choice.mode === mode) && onChange(mode as MultiKeyMode)}>
				<SelectTrigger id="channel-multi-key-mode" className="sm:w-60">
					<SelectValue />
				</SelectTrigger>
				<SelectContent>
					{MULTI_KEY_MODES.map((choice) => <SelectItem key={choice.mode} value={choice.mode}>{t(choice.label)}</SelectItem>)}
				</SelectContent>
			</Select>
		</Field>
	)
}
