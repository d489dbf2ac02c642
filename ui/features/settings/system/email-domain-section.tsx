import { XIcon } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { SectionCard, SwitchRow } from '@ui/features/settings/option-fields'
import { useOptionForm } from '@ui/features/settings/options-form'
import { OptionToggle } from '@ui/features/settings/system/option-toggle'
import { useTranslation } from '@ui/i18n'

const KEYS = ['EmailDomainWhitelist'] as const

const splitDomains = (text: string) => text.split(',').map((domain) => domain.trim()).filter(Boolean)

/** Which email domains may register; an entry is added only when nonempty and new (docs/specification/accounts-and-settings.md#system-tab). */
export function EmailDomainSection() {
	const { t } = useTranslation()
	const form = useOptionForm(KEYS)
	const [draft, setDraft] = useState('')
	const domains = splitDomains(form.values.EmailDomainWhitelist ?? '')
	const setDomains = (next: string[]) => form.set('EmailDomainWhitelist', next.join(','))

	function add() {
		const domain = draft.trim()
		if (domain && !domains.includes(domain)) setDomains([...domains, domain])
		setDraft('')
	}

	return (
		<SectionCard id="email-domain" title="配置邮箱域名白名单" description="用以防止恶意用户利用临时邮箱批量注册" form={form} saveText="保存邮箱域名白名单设置">
			<SwitchRow>
				<OptionToggle name="EmailDomainRestrictionEnabled" label="启用邮箱域名白名单" />
				<OptionToggle name="EmailAliasRestrictionEnabled" label="禁止使用邮箱别名（如 user+tag@example.com）" />
			</SwitchRow>
			<div className="flex flex-wrap gap-2" data-testid="email-domains">
				{domains.map((domain) => (
					<Badge key={domain} variant="outline" className="gap-1">
						{domain}
						<button type="button" aria-label={t('移除 {domain}', { domain })} onClick={() => setDomains(domains.filter((entry) => entry !== domain))}>
							<XIcon className="size-3" />
						</button>
					</Badge>
				))}
			</div>
			<div className="flex flex-col gap-1.5">
				<Label htmlFor="email-domain-draft">{t('添加允许的邮箱域名')}</Label>
				<div className="flex gap-2">
					<Input
						id="email-domain-draft"
						className="max-w-xs"
						placeholder={t('例如：example.com')}
						value={draft}
						onChange={(event) => setDraft(event.target.value)}
						onKeyDown={(event) => {
							if (event.key === 'Enter') {
								event.preventDefault()
								add()
							}
						}}
					/>
					<Button type="button" variant="outline" onClick={add}>
						{t('添加')}
					</Button>
				</div>
			</div>
		</SectionCard>
	)
}
