import type { ReactNode } from 'react'
import { PreferenceSwitches } from '@ui/components/layout/preference-switches'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@ui/components/ui/card'
import { useStatus } from '@ui/lib/status'

type AuthCardProps = { title: string; description?: ReactNode; footer?: ReactNode; children: ReactNode }

/**
 * The centred card of the sign-in pages (login, register, reset, reset confirm, OAuth callback); texts
 * come translated. These pages have no header: the theme and language switches sit in their corner.
 */
export function AuthCard({ title, description, footer, children }: AuthCardProps) {
	const status = useStatus()
	return (
		<main className="relative flex min-h-svh items-center justify-center bg-muted/40 p-4">
			<div className="absolute top-3 right-3 flex items-center gap-1" data-testid="auth-preferences">
				<PreferenceSwitches />
			</div>
			<Card className="w-full max-w-sm">
				<CardHeader className="items-center text-center">
					<img src={status.logo} alt="" className="mb-2 size-12 rounded-md" />
					<CardTitle>{title}</CardTitle>
					{description && <CardDescription>{description}</CardDescription>}
				</CardHeader>
				<CardContent className="flex flex-col gap-6">{children}</CardContent>
				{footer && <CardFooter className="justify-center gap-1 text-sm text-muted-foreground">{footer}</CardFooter>}
			</Card>
		</main>
	)
}
