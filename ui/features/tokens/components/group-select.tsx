import { AUTO_GROUP } from '@shared/user-constants'
import { Badge } from '@ui/components/ui/badge'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import type { UsableGroups } from '@ui/features/tokens/api'
import { groupRatioTier } from '@shared/pricing-constants'
import { builtInText } from '@ui/lib/built-in-texts'

/** Select values cannot be empty: the owner's own group (`''`) gets a value no group name can take. */
const ownGroupValue = 'own-group'
const groupPrefix = 'group:'
const groupValue = (group: string) => (group ? `${groupPrefix}${group}` : ownGroupValue)
const groupFromValue = (value: string) => (value === ownGroupValue ? '' : value.slice(groupPrefix.length))

type GroupSelectProps = { id?: string; groups: UsableGroups; value: string; onChange: (group: string) => void }

/** The usable groups with their description and price ratio; `auto` when the server defaults to it. */
export function GroupSelect({ id, groups, value, onChange }: GroupSelectProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const names = Object.keys(groups)
	if ((status.default_use_auto_group || value === AUTO_GROUP) && !names.includes(AUTO_GROUP)) names.unshift(AUTO_GROUP)
	// A group the token already has stays choosable even when it is no longer offered.
	if (value && !names.includes(value)) names.push(value)
	return (
		<Select value={groupValue(value)} onValueChange={(next) => onChange(groupFromValue(next))}>
			<SelectTrigger id={id}>
				<SelectValue />
			</SelectTrigger>
			<SelectContent>
				<SelectItem value={ownGroupValue}>{t('用户分组')}</SelectItem>
				{names.map((name) => {
					const group = groups[name]
					return (
						<SelectItem key={name} value={groupValue(name)}>
							<span className="flex items-center gap-2">
								<span>{name}</span>
								{name === AUTO_GROUP && !group && <span className="text-xs text-muted-foreground">{t('自动选择可用分组')}</span>}
								{group && group.desc !== name && <span className="text-xs text-muted-foreground">{t(builtInText(group.desc))}</span>}
								{group && <Badge variant={groupRatioTier(group.ratio)}>{t('{ratio} 倍率', { ratio: group.ratio })}</Badge>}
							</span>
						</SelectItem>
					)
				})}
			</SelectContent>
		</Select>
	)
}
