import { OptionSwitch, OptionTextarea, SectionCard } from '@ui/features/settings/option-fields'
import { useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['PrivateUpstreamsEnabled', 'PrivateUpstreamHosts'] as const

/** Channel base URLs, the SMTP server and the proxy worker on private networks need this consent; cloud metadata addresses never pass (docs/operations/security.md#outbound-requests). */
export function PrivateUpstreamSection() {
	const form = useOptionForm(KEYS)
	return (
		<SectionCard id="private-upstream" title="私有网络上游" description="允许渠道地址、SMTP 服务器和代理 Worker 指向内网（例如本机的 Ollama）；云元数据地址始终被拒绝" form={form} saveText="保存私有网络上游设置">
			<OptionSwitch form={form} name="PrivateUpstreamsEnabled" label="允许私有网络上游" />
			<OptionTextarea form={form} name="PrivateUpstreamHosts" label="允许的主机" hint="逗号、空格或换行分隔：主机名、*.域名、IP 地址或 CIDR 网段；留空则允许所有私有地址" rows={3} />
		</SectionCard>
	)
}
