export interface SmsOptOutRepository {
  isOptedOut(organizationId: string, phone: string): Promise<boolean>
  optOut(organizationId: string, phone: string, at: Date): Promise<void>
  optIn(organizationId: string, phone: string): Promise<void>
}
