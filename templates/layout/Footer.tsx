import type { ReactNode } from 'react';
import { homeAnchor, pathFor } from '../../cli/site/routes.ts';
import { usePage } from '../page-context.tsx';
import { usePageContactLink } from '../forms/use-contact-link.ts';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { Logo } from './Logo.tsx';

function FooterLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} className="rounded text-sm text-slate-300 hover:text-white">
      {children}
    </a>
  );
}

/** A titled list of the footer; a `wide` one takes the whole row on phones, where the two link lists share one. */
function FooterColumn({ title, wide = false, children }: { title: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'min-[360px]:col-span-2 md:col-span-1' : undefined}>
      <h2 className="text-sm font-semibold uppercase tracking-wider text-white">{title}</h2>
      <ul className="mt-4 space-y-3">{children}</ul>
    </div>
  );
}

function SocialLink({ href, icon, label }: { href: string; icon: IconName; label: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-white/10 text-slate-200 hover:bg-white/20 hover:text-white"
    >
      <Icon name={icon} className="h-5 w-5" />
      <span className="sr-only">{label}</span>
    </a>
  );
}

/** The site footer: about text, quick links (with the Markdown pages placed in the footer), legal links, contact details, social links, copyright. */
export function Footer() {
  const { lang, page, t, site, year, routes } = usePage();
  const contactLink = usePageContactLink();
  const here = page === 'notFound' ? 'about' : page;
  const newTab = ` ${t('nav.newTab')}`;
  return (
    <footer className="bg-navy-950 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-x-6 gap-y-10 px-4 py-14 min-[360px]:grid-cols-2 sm:px-6 lg:grid-cols-4 lg:px-8">
        <div className="min-[360px]:col-span-2 md:col-span-1">
          <Logo inverted />
          <p className="mt-4 text-sm leading-relaxed">{t('footer.about')}</p>
          <div className="mt-5 flex gap-3">
            <SocialLink href={site.social.telegram} icon="telegram" label={t('footer.telegram') + newTab} />
            <SocialLink href={site.social.linkedin} icon="linkedin" label={t('footer.linkedin') + newTab} />
          </div>
        </div>
        <FooterColumn title={t('footer.quickLinks')}>
          <li><FooterLink href={pathFor('home', lang)}>{t('footer.home')}</FooterLink></li>
          <li><FooterLink href={homeAnchor(here, lang, 'features')}>{t('footer.features')}</FooterLink></li>
          <li><FooterLink href={pathFor('solutions', lang)}>{t('nav.solutions')}</FooterLink></li>
          <li><FooterLink href={pathFor('howItWorks', lang)}>{t('footer.howItWorks')}</FooterLink></li>
          <li><FooterLink href={contactLink('general')}>{t('footer.contact')}</FooterLink></li>
          {routes.placedLinks('footer', lang).map((link) => (
            <li key={link.page}><FooterLink href={link.href}>{link.label}</FooterLink></li>
          ))}
        </FooterColumn>
        <FooterColumn title={t('footer.legalTitle')}>
          <li><FooterLink href={pathFor('legalNotice', lang)}>{t('footer.legalNotice')}</FooterLink></li>
          <li><FooterLink href={pathFor('privacy', lang)}>{t('footer.privacy')}</FooterLink></li>
          <li><FooterLink href={pathFor('dataHandling', lang)}>{t('footer.dataHandling')}</FooterLink></li>
          <li><FooterLink href={pathFor('cookies', lang)}>{t('footer.cookies')}</FooterLink></li>
        </FooterColumn>
        <FooterColumn title={t('footer.contactTitle')} wide>
          <li className="flex items-start gap-2 text-sm">
            <Icon name="mail" className="mt-0.5 h-4 w-4 shrink-0" />
            <a href={`mailto:${site.email}`} className="rounded hover:text-white">{t('footer.email', { email: site.email })}</a>
          </li>
          <li className="flex items-start gap-2 text-sm">
            <Icon name="phone" className="mt-0.5 h-4 w-4 shrink-0" />
            <a href={`tel:${site.phone.replace(/\s+/g, '')}`} className="rounded hover:text-white">{t('footer.phone', { phone: site.phone })}</a>
          </li>
          <li className="flex items-start gap-2 text-sm">
            <Icon name="pin" className="mt-0.5 h-4 w-4 shrink-0" />
            <span>{t('footer.location')}</span>
          </li>
        </FooterColumn>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-400 sm:px-6 lg:px-8">
          {t('footer.copyright', { year, company: site.company.legalName })}
        </p>
      </div>
    </footer>
  );
}
