import { ChevronDownIcon, ChevronUpIcon, CopyIcon, PlusIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { TOKEN_STATUS } from '@shared/token-constants'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@ui/components/ui/card'
import { copyText } from '@ui/components/ui/copy'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@ui/components/ui/tabs'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useCurrentUser } from '@ui/lib/session'
import { useStatus } from '@ui/lib/status'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'
import type { TokenView } from '@ui/features/tokens/api'
import { apiBaseUrl, claudeCodeEnvironment, codexConfiguration, curlCommand, geminiCliConfiguration, openAiEnvironment, siteAddress } from '@ui/features/tokens/client-setup'

/** Stands in for the key in the examples until the user has an enabled token. */
const KEY_PLACEHOLDER = 'sk-...'
/** The example's model when the user may call it (else their first model). */
const EXAMPLE_MODEL = 'gpt-4o-mini'

export type QuickStartData = {
	/** Where the page was loaded from: the address when the site has no server address set. */
	origin: string
	/** Today's consumption in quota (the viewer's day), or null when the figure could not be read. */
	todaySpent: number | null
}

type QuickStartProps = QuickStartData & {
	/** The user's first enabled token, whose key the examples carry. */
	token: TokenView | undefined
	models: string[]
	onCreateToken: () => void
}

/** The first enabled token of a page of tokens. */
export const firstUsableToken = (tokens: TokenView[]) => tokens.find((token) => token.status === TOKEN_STATUS.enabled)

/**
 * The start of the token page (where a sign-in lands): the API base URL, the user's balance and
 * today's spend, and ready settings for curl, the OpenAI SDKs and the coding agents, carrying the
 * user's own token. It folds away, and stays folded, once its reader has what they need.
 */
export function QuickStart({ origin, todaySpent, token, models, onCreateToken }: QuickStartProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const user = useCurrentUser()
	const [folded, setFolded] = useState(false)
	useEffect(() => setFolded(readStorage(storageKeys.quickStartFolded) === 'true'), [])
	const address = siteAddress(status, origin)
	const key = token?.key ?? KEY_PLACEHOLDER
	const model = models.includes(EXAMPLE_MODEL) || models.length === 0 ? EXAMPLE_MODEL : models[0]!
	const examples = [
		{ id: 'curl', label: 'curl', text: curlCommand(address, key, model) },
		{ id: 'openai', label: 'OpenAI SDK', text: openAiEnvironment(address, key) },
		{ id: 'claude-code', label: 'Claude Code', text: claudeCodeEnvironment(address, key) },
		{ id: 'codex', label: 'Codex', text: codexConfiguration(address, key) },
		{ id: 'gemini-cli', label: 'Gemini CLI', text: geminiCliConfiguration(address, key) },
	]

	function fold(next: boolean) {
		setFolded(next)
		writeStorage(storageKeys.quickStartFolded, String(next))
	}

	return (
		<Card data-testid="quick-start" className="gap-3">
			<CardHeader className="flex flex-row items-start justify-between gap-2">
				<div className="flex flex-col gap-1">
					<CardTitle>{t('开始使用')}</CardTitle>
					<CardDescription>{t('把客户端的 API 地址设为下面的地址，API Key 填你的令牌')}</CardDescription>
				</div>
				<Button variant="ghost" size="sm" aria-expanded={!folded} onClick={() => fold(!folded)}>
					{folded ? <ChevronDownIcon /> : <ChevronUpIcon />}
					{t(folded ? '展开' : '收起')}
				</Button>
			</CardHeader>
			<CardContent className="flex flex-col gap-3">
				<div className="grid gap-3 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
					<div className="flex min-w-0 flex-col gap-1 rounded-lg border bg-muted/30 p-3">
						<span className="text-xs text-muted-foreground">{t('API 地址')}</span>
						<div className="flex items-center gap-2">
							<code className="min-w-0 truncate font-mono text-sm font-semibold" data-testid="base-url">{apiBaseUrl(address)}</code>
							<Button variant="outline" size="icon" className="size-7 shrink-0" aria-label={t('复制 API 地址')} title={t('复制 API 地址')} onClick={() => copyText(apiBaseUrl(address), t)}>
								<CopyIcon />
							</Button>
						</div>
					</div>
					<Figure label={t('当前余额')} testId="quick-start-balance" value={user ? renderQuota(user.quota, status) : '-'} />
					<Figure label={t('今日消费')} testId="quick-start-today" value={todaySpent === null ? '-' : renderQuota(todaySpent, status)} />
				</div>
				{!folded && (
					<Tabs defaultValue="curl" className="flex flex-col gap-2">
						<TabsList className="max-w-full justify-start overflow-x-auto">
							{examples.map((example) => <TabsTrigger key={example.id} value={example.id} className="flex-none">{example.label}</TabsTrigger>)}
						</TabsList>
						{examples.map((example) => (
							<TabsContent key={example.id} value={example.id} className="flex flex-col gap-2">
								<div className="relative">
									<pre className="overflow-x-auto rounded-md border bg-muted/40 p-3 pr-12 font-mono text-xs leading-relaxed" data-testid={`quick-start-${example.id}`}>{example.text}</pre>
									<Button variant="outline" size="icon" className="absolute top-2 right-2 size-7" aria-label={t('复制')} title={t('复制')} onClick={() => copyText(example.text, t)}>
										<CopyIcon />
									</Button>
								</div>
							</TabsContent>
						))}
						<p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
							{token ? t('示例使用令牌「{name}」', { name: token.name }) : t('还没有可用的令牌：创建一个，示例会带上它的密钥')}
							{!token && (
								<Button size="sm" variant="outline" onClick={onCreateToken}>
									<PlusIcon />
									{t('添加令牌')}
								</Button>
							)}
						</p>
					</Tabs>
				)}
			</CardContent>
		</Card>
	)
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
	return (
		<div className="flex flex-col gap-1 rounded-lg border bg-muted/30 p-3">
			<span className="text-xs text-muted-foreground">{label}</span>
			<span className="text-lg font-semibold tabular-nums" data-testid={testId}>{value}</span>
		</div>
	)
}
