import { Outlet } from 'react-router'
import { AppLayout } from '@ui/components/layout/app-layout'

/** Home, about (and later pricing): header and footer, no side menu. */
export function PublicLayout() {
	return (
		<AppLayout>
			<Outlet />
		</AppLayout>
	)
}
