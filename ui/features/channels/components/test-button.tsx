import { ChevronDownIcon } from 'lucide-react'
import { useState } from 'react'
import { splitList } from '@shared/channel-constants'
import type { ChannelView } from '@shared/channel'
import { Button } from '@ui/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@ui/components/ui/dropdown-menu'
import { testChannel } from '@ui/features/channels/api'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { millisecondsAsSeconds } from '@ui/lib/format'

const MILLISECONDS_PER_SECOND = 1000

/** Test with the default model, or pick one of the channel's models from the dropdown. */
export function TestButton({ channel }: { channel: ChannelView }) {
	const { t } = useTranslation()
	const run = useChannelAction()
	const [testing, setTesting] = useState(false)
	const models = splitList(channel.models)

	async function test(model?: string) {
		setTesting(true)
		try {
			// The answer's schema (and zod) load with the first test, not with the page.
			const { channelTestResultSchema } = await import('@shared/channel')
			await run(testChannel(browserApi, channel.id, model), (data) => {
				const result = channelTestResultSchema.safeParse(data)
				if (!result.success) return t('渠道 {name} 测试成功', { name: channel.name })
				// Under a second in milliseconds: a quick upstream is not "0.00 s".
				return result.data.time < MILLISECONDS_PER_SECOND
					? t('渠道 {name} 测试成功，耗时 {milliseconds} 毫秒', { name: channel.name, milliseconds: Math.round(result.data.time) })
					: t('渠道 {name} 测试成功，耗时 {seconds} 秒', { name: channel.name, seconds: millisecondsAsSeconds(result.data.time, 2) })
			})
		} finally {
			setTesting(false)
		}
	}

	return (
		<div className="flex">
			<Button variant="outline" size="sm" className="rounded-r-none" disabled={testing} onClick={() => test()}>
				{t('测试')}
			</Button>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					<Button variant="outline" size="sm" className="rounded-l-none border-l-0 px-1.5" disabled={testing} aria-label={t('选择测试模型')}>
						<ChevronDownIcon />
					</Button>
				</DropdownMenuTrigger>
				<DropdownMenuContent align="end">
					<DropdownMenuLabel>{t('选择测试模型')}</DropdownMenuLabel>
					{models.map((model) => (
						<DropdownMenuItem key={model} onSelect={() => test(model)}>
							{model}
						</DropdownMenuItem>
					))}
				</DropdownMenuContent>
			</DropdownMenu>
		</div>
	)
}
