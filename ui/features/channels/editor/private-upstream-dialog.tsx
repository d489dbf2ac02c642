import { TriangleAlertIcon } from 'lucide-react'
import { useState } from 'react'
import { BASE_URL_REACH } from '@shared/channel-constants'
import type { ChannelCheck } from '@shared/channel'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { isRoot, useCurrentUser } from '@ui/lib/session'
import { readPrivateUpstreamHosts, setPrivateUpstreamOption } from './api'

export type BaseUrlProblem = NonNullable<ChannelCheck['base_url']>

type PrivateUpstreamDialogProps = {
	problem: BaseUrlProblem | null
	onClose: () => void
	/** Saves the channel as it is (after the switch, or without it). */
	onSave: () => void
}

/**
 * Shown when the channel's base URL is on a private network the settings refuse (or is never
 * reachable): saved as it is, every call, test and model fetch would fail. The super admin can turn
 * private upstreams on (or add the host to their allow-list) from here; an admin is told who can.
 */
export function PrivateUpstreamDialog({ problem, onClose, onSave }: PrivateUpstreamDialogProps) {
	const { t } = useTranslation()
	const superAdmin = isRoot(useCurrentUser())
	const [switching, setSwitching] = useState(false)
	const refused = problem?.reach === BASE_URL_REACH.refused
	// Turned on with an allow-list that leaves this host out: the switch adds the host to the list.
	const addsHost = Boolean(problem?.private_upstreams_enabled)

	async function allow() {
		if (!problem) return
		setSwitching(true)
		let done: unknown
		if (addsHost) {
			const hosts = [await readPrivateUpstreamHosts(browserApi).catch(() => ''), problem.host].map((text) => text.trim()).filter(Boolean).join(',')
			done = await callApi(t, setPrivateUpstreamOption(browserApi, 'PrivateUpstreamHosts', hosts), '已允许私有网络上游')
		} else {
			done = await callApi(t, setPrivateUpstreamOption(browserApi, 'PrivateUpstreamsEnabled', 'true'), '已允许私有网络上游')
		}
		setSwitching(false)
		if (done) onSave()
	}

	return (
		<Dialog open={problem !== null} onOpenChange={(open) => !open && onClose()}>
			<DialogContent data-testid="private-upstream-dialog" className="sm:max-w-lg">
				<DialogHeader>
					<DialogTitle className="flex items-center gap-2">
						<TriangleAlertIcon className="size-5 text-amber-500" />
						{t(refused ? 'Ferry 不会连接这个地址' : '这个地址在私有网络上')}
					</DialogTitle>
					<DialogDescription>
						{refused
							? t('{url} 是云元数据、保留地址或不是 http(s) 地址，Ferry 从不连接它：保存后调用、测试和获取模型都会失败。', { url: problem?.url ?? '' })
							: t('{host} 是内网或本机地址。私有网络上游未被允许时，保存后调用、测试和获取模型都会失败（“host on a private network”）。', { host: problem?.host ?? '' })}
					</DialogDescription>
				</DialogHeader>
				{!refused && (
					<p className="text-sm">
						{superAdmin
							? t(addsHost ? '已允许私有网络上游，但允许的主机列表里没有 {host}。' : '可以在这里直接允许，也可以稍后在「设置 › 系统设置 › 私有网络上游」中修改。', { host: problem?.host ?? '' })
							: t('只有超级管理员可以在「设置 › 系统设置 › 私有网络上游」中允许，请联系超级管理员。')}
					</p>
				)}
				<DialogFooter>
					<Button variant="outline" onClick={onClose}>{t('取消')}</Button>
					<Button variant="outline" onClick={onSave}>{t('仍然保存')}</Button>
					{superAdmin && !refused && (
						<Button disabled={switching} onClick={allow}>
							{t(addsHost ? '允许 {host} 并保存' : '允许私有网络上游并保存', { host: problem?.host ?? '' })}
						</Button>
					)}
				</DialogFooter>
			</DialogContent>
		</Dialog>
	)
}
