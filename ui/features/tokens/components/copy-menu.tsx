import { ChevronDownIcon, CopyIcon } from 'lucide-react'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@ui/components/ui/dropdown-menu'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { claudeCodeEnvironment, codexConfiguration, geminiCliConfiguration, openAiEnvironment, siteAddress } from '@ui/features/tokens/client-setup'

/**
 * A token's copy button (the key) and, beside it, the other ways to take it away: the base URL with
 * the key, and the settings of Claude Code, Codex and Gemini CLI.
 */
export function CopyMenu({ tokenKey }: { tokenKey: string }) {
	const { t } = useTranslation()
	const status = useStatus()
	const address = () => siteAddress(status, window.location.origin)
	const ways = [
		{ label: '复制地址和密钥', text: () => openAiEnvironment(address(), tokenKey) },
		{ label: '复制为 Claude Code 配置', text: () => claudeCodeEnvironment(address(), tokenKey) },
		{ label: '复制为 Codex 配置', text: () => codexConfiguration(address(), tokenKey) },
		{ label: '复制为 Gemini CLI 配置', text: () => geminiCliConfiguration(address(), tokenKey) },
	]
	return (
		<div className="flex items-center">
			{/* 复制 keeps its label on every screen: copying the key is what the page is for */}
			<Button variant="outline" size="sm" className="rounded-r-none" onClick={() => copyText(tokenKey, t)}>
				<CopyIcon />
				{t('复制')}
			</Button>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					<Button variant="outline" size="sm" className="rounded-l-none border-l-0 px-1.5" aria-label={t('更多复制方式')} title={t('更多复制方式')}>
						<ChevronDownIcon />
					</Button>
				</DropdownMenuTrigger>
				<DropdownMenuContent align="start">
					{ways.map((way) => (
						<DropdownMenuItem key={way.label} onSelect={() => copyText(way.text(), t)}>
							{t(way.label)}
						</DropdownMenuItem>
					))}
				</DropdownMenuContent>
			</DropdownMenu>
		</div>
	)
}
