import { useEffect, useState } from 'react'
import { useLoaderData, useRevalidator } from 'react-router'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { Label } from '@ui/components/ui/label'
import { Switch } from '@ui/components/ui/switch'
import { updateOption } from '@ui/features/settings/api'
import { fieldId } from '@ui/features/settings/option-fields'
import { optionMessages } from '@ui/features/settings/options-form'
import type { SettingData } from '@ui/features/settings/setting-route'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

type OptionToggleProps = {
	name: string
	/** zh source string. */
	label: string
	/** Asked before turning the option off (zh source strings). */
	confirmOff?: { title: string; description: string }
}

/** A boolean option saved on the spot: a flip sends the opposite of the current string (docs/specification/accounts-and-settings.md#options). */
export function OptionToggle({ name, label, confirmOff }: OptionToggleProps) {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	const stored = (useLoaderData() as SettingData).options?.[name] ?? 'false'
	const [value, setValue] = useState(stored)
	const [confirming, setConfirming] = useState(false)
	const [sending, setSending] = useState(false)
	useEffect(() => setValue(stored), [stored])

	async function send() {
		const next = value === 'true' ? 'false' : 'true'
		setSending(true)
		const envelope = await callApi(t, updateOption(browserApi, name, next), optionMessages.saved)
		setSending(false)
		if (!envelope) return
		setValue(next)
		revalidator.revalidate()
	}

	return (
		<div className="flex items-center gap-2" data-option={name}>
			<Switch
				id={fieldId(name)}
				checked={value === 'true'}
				disabled={sending}
				onCheckedChange={() => (confirmOff && value === 'true' ? setConfirming(true) : void send())}
			/>
			<Label htmlFor={fieldId(name)}>{t(label)}</Label>
			{confirmOff && (
				<ConfirmDialog
					open={confirming}
					onOpenChange={setConfirming}
					title={t(confirmOff.title)}
					description={t(confirmOff.description)}
					destructive
					onConfirm={() => void send()}
				/>
			)}
		</div>
	)
}
