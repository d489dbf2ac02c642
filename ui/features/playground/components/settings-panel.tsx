import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'
import type { UsableGroups } from '@ui/features/tokens/api'
import { type PlaygroundSettings, TEMPERATURE } from '@ui/features/playground/conversation'
import { builtInText } from '@ui/lib/built-in-texts'

type SettingsPanelProps = {
	settings: PlaygroundSettings
	onChange: (changes: Partial<PlaygroundSettings>) => void
	groups: UsableGroups
	models: string[]
}

/** The sidebar: group, model, temperature, max tokens (0: not sent) and the system prompt. */
export function SettingsPanel({ settings, onChange, groups, models }: SettingsPanelProps) {
	const { t } = useTranslation()
	const groupNames = Object.keys(groups)
	return (
		<div className="flex flex-col gap-4">
			<div className="flex flex-col gap-2">
				<Label htmlFor="playground-group">{t('分组')}</Label>
				<Select value={settings.group} onValueChange={(group) => onChange({ group })} disabled={groupNames.length === 0}>
					<SelectTrigger id="playground-group">
						<SelectValue placeholder={t('用户分组')} />
					</SelectTrigger>
					<SelectContent>
						{groupNames.map((name) => (
							<SelectItem key={name} value={name}>
								<span className="flex items-center gap-2">
									<span>{name}</span>
									{groups[name]!.desc !== name && <span className="text-xs text-muted-foreground">{t(builtInText(groups[name]!.desc))}</span>}
								</span>
							</SelectItem>
						))}
					</SelectContent>
				</Select>
			</div>
			<div className="flex flex-col gap-2">
				<Label htmlFor="playground-model">{t('模型')}</Label>
				<Select value={settings.model} onValueChange={(model) => onChange({ model })} disabled={models.length === 0}>
					<SelectTrigger id="playground-model">
						<SelectValue placeholder={t('没有可用的模型')} />
					</SelectTrigger>
					<SelectContent>
						{models.map((model) => <SelectItem key={model} value={model}>{model}</SelectItem>)}
					</SelectContent>
				</Select>
			</div>
			<div className="flex flex-col gap-2">
				<Label htmlFor="playground-temperature" className="justify-between">
					<span>{t('温度')}</span>
					<span className="tabular-nums text-muted-foreground">{settings.temperature.toFixed(1)}</span>
				</Label>
				<input
					id="playground-temperature"
					type="range"
					min={TEMPERATURE.min}
					max={TEMPERATURE.max}
					step={TEMPERATURE.step}
					value={settings.temperature}
					onChange={(event) => onChange({ temperature: Math.round(Number(event.target.value) * 10) / 10 })}
					className="w-full accent-primary"
				/>
			</div>
			<div className="flex flex-col gap-2">
				<Label htmlFor="playground-max-tokens">{t('最大 Token 数')}</Label>
				<Input
					id="playground-max-tokens"
					type="number"
					min={0}
					step={1}
					inputMode="numeric"
					value={settings.maxTokens}
					onChange={(event) => onChange({ maxTokens: Math.max(0, Math.floor(Number(event.target.value) || 0)) })}
				/>
				<p className="text-xs text-muted-foreground">{t('0 表示不限制')}</p>
			</div>
			<div className="flex flex-col gap-2">
				<Label htmlFor="playground-system-prompt">{t('系统提示词')}</Label>
				<Textarea
					id="playground-system-prompt"
					rows={5}
					value={settings.systemPrompt}
					placeholder={t('例如：你是一个乐于助人的助手')}
					onChange={(event) => onChange({ systemPrompt: event.target.value })}
				/>
			</div>
		</div>
	)
}
