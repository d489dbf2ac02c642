import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'WorkerUrl', label: 'Worker 地址', placeholder: '例如：https://workername.yourdomain.workers.dev', kind: 'address' },
	{ key: 'WorkerValidKey', label: 'Worker 密钥', kind: 'secret' },
])

export function WorkerSection() {
	return <FieldsSection id="worker" title="代理设置" saveText="更新代理设置" description="用于代理获取图片等外部资源" spec={SPEC} />
}
